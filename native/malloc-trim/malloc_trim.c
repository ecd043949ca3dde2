// malloc_trim(3) for Node: gives the pages glibc's allocator holds free back to the system.
// glibc returns freed memory only from the top of each heap; one long-lived block above a compiler's
// freed scratch memory keeps all of it resident for the life of the process (docs/performance/memory.md,
// "Round 15"). The walk takes milliseconds on a large heap, so it runs on libuv's thread pool, not on
// the event loop. Elsewhere (macOS, musl) there is nothing to call and the promise resolves to false.
#include <node_api.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  int released;
} Trim;

static void Execute(napi_env env, void* data) {
  (void)env;
  Trim* trim = data;
#ifdef __GLIBC__
  trim->released = malloc_trim(0);
#else
  trim->released = 0;
#endif
}

static void Complete(napi_env env, napi_status status, void* data) {
  Trim* trim = data;
  napi_value result;
  napi_get_boolean(env, status == napi_ok && trim->released != 0, &result);
  napi_resolve_deferred(env, trim->deferred, result);
  napi_delete_async_work(env, trim->work);
  free(trim);
}

/** trim(): Promise<boolean>, true when memory was given back. */
static napi_value Start(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value promise, name;
  Trim* trim = calloc(1, sizeof(Trim));
  if (trim == NULL) {
    napi_throw_error(env, NULL, "malloc_trim: out of memory");
    return NULL;
  }
  napi_create_promise(env, &trim->deferred, &promise);
  napi_create_string_utf8(env, "malloc_trim", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, NULL, name, Execute, Complete, trim, &trim->work);
  napi_queue_async_work(env, trim->work);
  return promise;
}

static napi_value Init(napi_env env, napi_value exports) {
  napi_value fn;
  if (napi_create_function(env, "trim", NAPI_AUTO_LENGTH, Start, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "trim", fn) != napi_ok) return NULL;
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
