package io.github.redisdelaybridge.store.connection;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.function.Supplier;

/**
 * The commands handed out before the first connection to Redis exists: each call goes to the real commands once
 * they are there, and until then fails at once with "not connected" (as a failed future, the way a command fails
 * while Lettuce reconnects), so that the store and its callers need not know whether Redis was ever reached.
 */
final class NotConnectedCommands {

    private NotConnectedCommands() {
    }

    @SuppressWarnings("unchecked")
    static RedisClusterAsyncCommands<byte[], byte[]> delegatingOnceConnected(Supplier<RedisClusterAsyncCommands<byte[], byte[]>> connected,
                                                                            String description) {
        InvocationHandler handler = (proxy, method, args) -> {
            RedisClusterAsyncCommands<byte[], byte[]> real = connected.get();
            if (real != null) {
                try {
                    return method.invoke(real, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "commands of Redis " + description + " (not connected yet)";
                };
            }
            if (RedisFuture.class.isAssignableFrom(method.getReturnType())) {
                AsyncCommand<byte[], byte[], Object> failed = new AsyncCommand<>(new Command<>(CommandType.PING, null));
                failed.completeExceptionally(notConnected(description));
                return failed;
            }
            throw notConnected(description);
        };
        return (RedisClusterAsyncCommands<byte[], byte[]>) Proxy.newProxyInstance(RedisClusterAsyncCommands.class.getClassLoader(),
                new Class<?>[] {RedisClusterAsyncCommands.class}, handler);
    }

    static RedisConnectionException notConnected(String description) {
        return new RedisConnectionException("not connected to Redis " + description + " yet");
    }
}
