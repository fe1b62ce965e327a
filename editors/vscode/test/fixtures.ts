// Loads the recorded fixtures (scripts/record-fixtures.mjs).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { root } from './root';
import type { ChatEvent, ChatParams, ChatResult, CompactParams, CompactResult, IndexStatus, SessionHistory, SessionSummary } from '../src/protocol';

export const fixturesDir = path.join(root, 'test', 'fixtures');

export interface TurnFixture {
  description: string;
  request: { method: string; params: ChatParams };
  events: ChatEvent[];
  result: ChatResult | null;
  error: { code: number; message: string } | null;
  applyEdits?: { label?: string; edit: any }[];
  approvals?: { request: { type: number; message: string; actions: { title: string }[] }; answer: string }[];
  progress: { token: string; value: any }[];
}

export interface SessionsFixture {
  sessions: { sessions: SessionSummary[] };
  history: SessionHistory;
  indexStatus: IndexStatus;
  indexProgress: { token: string; value: any }[];
}

export interface CompactFixture {
  description: string;
  request: { method: 'parley/compact'; params: CompactParams };
  events: ChatEvent[];
  result: CompactResult;
  progress: { token: string; value: any }[];
  /** parley/session after the compaction. */
  history: SessionHistory;
}

export function compactFixture(): CompactFixture {
  return JSON.parse(fs.readFileSync(path.join(fixturesDir, 'compact.json'), 'utf8'));
}

export function turnFixture(name: 'text-answer' | 'tool-edit' | 'cancelled' | 'error' | 'hook'): TurnFixture {
  return JSON.parse(fs.readFileSync(path.join(fixturesDir, `${name}.json`), 'utf8'));
}

export function sessionsFixture(): SessionsFixture {
  return JSON.parse(fs.readFileSync(path.join(fixturesDir, 'sessions.json'), 'utf8'));
}

export const TURN_FIXTURES = ['text-answer', 'tool-edit', 'cancelled', 'error'] as const;
