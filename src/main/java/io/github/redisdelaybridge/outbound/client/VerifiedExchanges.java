package io.github.redisdelaybridge.outbound.client;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether an exchange exists, checked with a passive declare on a throw-away channel before the first publish to it and
 * then every {@value #MEMORY_MS} ms: a publish to a missing exchange makes the broker close the channel (404), which
 * would fail every other message in flight on it; checked first, the message for the missing exchange fails alone.
 */
final class VerifiedExchanges {

    static final long MEMORY_MS = 10_000;

    private final Map<String, Long> verifiedUntil = new ConcurrentHashMap<>();

    /** Null if the exchange exists (or was seen recently; the default exchange always does), else the broker's reason. */
    String missing(String exchange, Connection connection) throws IOException {
        if (exchange.isEmpty()) {
            return null;
        }
        Long until = verifiedUntil.get(exchange);
        long now = System.currentTimeMillis();
        if (until != null && until > now) {
            return null;
        }
        Channel probe = connection.createChannel();
        try {
            probe.exchangeDeclarePassive(exchange);
            verifiedUntil.put(exchange, now + MEMORY_MS);
            return null;
        } catch (IOException e) {
            if (e.getCause() instanceof ShutdownSignalException closedBy && ChannelCloses.closeCode(closedBy) == AMQP.NOT_FOUND) {
                return ChannelCloses.describe(closedBy);
            }
            throw e;
        } finally {
            if (probe.isOpen()) {
                try {
                    probe.close();
                } catch (Exception ignored) {
                    // closing a probe channel that the broker is closing anyway
                }
            }
        }
    }
}
