// The Element Timing API's attribute (https://wicg.github.io/element-timing/): React passes it through,
// its typings do not list it yet.
import "react";

declare module "react" {
  // Declaration merging needs React's own type parameter, unused here.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}
