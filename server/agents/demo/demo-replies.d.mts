// Types for demo-replies.mjs (plain JavaScript: the demo tutors run it as they are).
export interface DemoStep {
  readonly say?: string;
  readonly colour?: "tutor" | "hint";
  readonly run?: string[];
  readonly exit?: number;
}
export const HELP_LINES: readonly string[];
export function topicOf(tutorMd: string): string;
export function demoReply(line: string, topic: string): DemoStep[];
export function chatAnswer(message: string, topic: string): string;
