package io.github.redisdelaybridge.outbound.client;

/**
 * The broker told the bridge to stop publishing (RabbitMQ's {@code connection.blocked}, sent during a memory or
 * disk alarm), so the message was <em>not sent</em>: nothing of it reached the broker. Retrying later is safe and
 * costs the message no attempt.
 */
public final class BrokerBlockedException extends Exception {

    private final long blockedSinceEpochMs;

    public BrokerBlockedException(String detail, long blockedSinceEpochMs) {
        super(detail, null, false, false);
        this.blockedSinceEpochMs = blockedSinceEpochMs;
    }

    /** When the broker blocked the connection (epoch ms, this host's clock). */
    public long blockedSinceEpochMs() {
        return blockedSinceEpochMs;
    }
}
