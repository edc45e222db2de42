/**
 * Running the Lua scripts of {@code src/main/resources/lua}: loading them, their contracts (keys, ARGV and reply as each
 * script's header states them), and the runner every script call of the store goes through.
 */
package io.github.redisdelaybridge.store.script;
