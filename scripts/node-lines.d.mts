// Types for node-lines.mjs, which bench/start.ts imports.
export const LINES: number[];
export function nodeLine(line: number): string;
export function nodeLines(lines?: number[]): Array<{ line: number; node: string; version: string }>;
