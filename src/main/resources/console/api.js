// Calls to the admin API (docs/admin-api.md). The admin token is kept in sessionStorage (this tab only, gone when it
// closes) and sent as the API expects: Authorization: Bearer <token>; a body goes as JSON, with its content type.
import { say } from './dom.js';

const API = '../api';
const TOKEN_KEY = 'redis-delay-bridge.admin-token';

export const token = () => sessionStorage.getItem(TOKEN_KEY) || '';

export function useToken(value) {
  sessionStorage.setItem(TOKEN_KEY, value);
}

export function forgetToken() {
  sessionStorage.removeItem(TOKEN_KEY);
}

// The answer's JSON; a refusal throws an Error carrying the API's own message and the HTTP status.
export async function api(method, path, body) {
  const headers = {};
  if (token()) headers.Authorization = 'Bearer ' + token();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(API + path, { method, headers, cache: 'no-store', body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let json = null;
  if (text && (response.headers.get('Content-Type') || '').startsWith('application/json')) {
    try { json = JSON.parse(text); } catch (ignored) { json = null; }
  }
  if (!response.ok) {
    const error = new Error((json && json.error) || (response.status + ' ' + response.statusText));
    error.status = response.status;
    throw error;
  }
  return json;
}

// Says why an action failed, with what the operator can do about a 401 or a 403.
export function fail(what, error) {
  const hint = error.status === 401 ? ' Enter the admin token (bridge.admin.token) above.'
    : error.status === 403 ? ' (A read-only token cannot change anything; see docs/admin-api.md.)' : '';
  say(what + ': ' + error.message + hint, false);
}

// Runs one action of the operator's, its failure said on the status line.
export async function run(what, action) {
  try {
    await action();
  } catch (error) {
    fail(what, error);
  }
}
