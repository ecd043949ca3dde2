// The Element Timing API's attribute (https://wicg.github.io/element-timing/): React passes it through,
// its typings do not list it yet.
import "react";

declare module "react" {
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}
