package io.github.redisdelaybridge.outbound.client;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ReturnListener;
import com.rabbitmq.client.ShutdownListener;
import com.rabbitmq.client.ShutdownSignalException;
import io.github.redisdelaybridge.message.HeaderNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The bridge's RabbitMQ client: publishes raw messages (exchange, routing key, properties, body) with
 * publisher confirms and reports the broker's verdict as a future. It knows nothing of envelopes or
 * targets: {@code RabbitMqTargetPublisher} and the RabbitMQ dead-letter channel build their messages and
 * hand them to it.
 *
 * <p>A future succeeds only when the broker confirmed (basic.ack) a message that it could route; it
 * fails when the message is returned as unroutable (published mandatory), nacked, or lost with its
 * channel or connection (for instance on a missing exchange, which closes the channel with 404).
 * camel-spring-rabbitmq's confirms cannot tell these apart reliably, and Spring's RabbitTemplate
 * correlates returns through two headers of its own that would reach every consumer, so this uses the
 * RabbitMQ client library directly:
 * <ul>
 *   <li>one channel in confirm mode; each publish is remembered under its sequence number until its
 *       ack or nack (a multiple ack settles every earlier one);</li>
 *   <li>RabbitMQ sends a return before the ack of the same message, so a return marks the oldest pending
 *       publish with the same exchange, routing key and {@code x-message-id}, and that publish fails when
 *       its ack arrives;</li>
 *   <li>a closed channel or connection fails everything pending on it; the next publish opens new ones
 *       (no automatic recovery: a publish whose channel died is reported failed and retried by the
 *       dispatcher, never replayed behind its back);</li>
 *   <li>an exchange is checked with a passive declare (on a throw-away channel) before the first publish
 *       to it and then every {@value #VERIFIED_EXCHANGE_MEMORY_MS} ms, so a message for a missing exchange
 *       fails alone instead of closing the channel under every other message in flight.</li>
 * </ul>
 * Publishing is serialized (one channel); confirms arrive asynchronously, so a batch is still pipelined.
 */
public final class RabbitMqConfirmingClient implements AutoCloseable {

    static final long VERIFIED_EXCHANGE_MEMORY_MS = 10_000;
    private static final long RECONNECT_PAUSE_MS = 1_000;

    private final ConnectionFactory factory;
    private final String connectionName;
    private final Map<String, Long> exchangeVerifiedUntil = new ConcurrentHashMap<>();

    private Connection connection;
    private ConfirmingChannel channel;
    private long reconnectNotBefore;
    private String lastConnectFailure;
    private boolean closed;

    /** {@code factory}: host, port, credentials and virtual host; automatic recovery is turned off here. */
    public RabbitMqConfirmingClient(ConnectionFactory factory, String connectionName) {
        this.factory = factory;
        this.connectionName = connectionName;
        factory.setAutomaticRecoveryEnabled(false);
        factory.setTopologyRecoveryEnabled(false);
    }

    public synchronized CompletableFuture<Void> publish(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body) {
        try {
            ConfirmingChannel open = openChannel();
            String missing = missingExchange(exchange);
            if (missing != null) {
                return CompletableFuture.failedFuture(new RabbitMqPublishException(missing));
            }
            return open.publish(exchange, routingKey, properties, body);
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private ConfirmingChannel openChannel() throws Exception {
        if (closed) {
            throw new IllegalStateException("RabbitMQ publisher is closed");
        }
        if (channel != null && channel.isOpen()) {
            return channel;
        }
        if (connection == null || !connection.isOpen()) {
            if (System.currentTimeMillis() < reconnectNotBefore) {
                throw new IOException("RabbitMQ unreachable (retrying the connection shortly): " + lastConnectFailure);
            }
            try {
                connection = factory.newConnection(connectionName);
            } catch (Exception e) {
                reconnectNotBefore = System.currentTimeMillis() + RECONNECT_PAUSE_MS;
                lastConnectFailure = e.toString();
                throw e;
            }
        }
        channel = new ConfirmingChannel(connection.createChannel());
        return channel;
    }

    /** Null if the exchange exists (or was seen recently), else the broker's reason. */
    private String missingExchange(String exchange) throws IOException {
        if (exchange.isEmpty()) {
            return null;
        }
        Long verifiedUntil = exchangeVerifiedUntil.get(exchange);
        long now = System.currentTimeMillis();
        if (verifiedUntil != null && verifiedUntil > now) {
            return null;
        }
        Channel probe = connection.createChannel();
        try {
            probe.exchangeDeclarePassive(exchange);
            exchangeVerifiedUntil.put(exchange, now + VERIFIED_EXCHANGE_MEMORY_MS);
            return null;
        } catch (IOException e) {
            if (e.getCause() instanceof ShutdownSignalException closedBy && closeCode(closedBy) == AMQP.NOT_FOUND) {
                return describe(closedBy);
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

    @Override
    public synchronized void close() {
        closed = true;
        if (connection != null && connection.isOpen()) {
            try {
                connection.close(5_000);
            } catch (Exception ignored) {
                // the broker went away first
            }
        }
    }

    private static int closeCode(ShutdownSignalException signal) {
        if (signal.getReason() instanceof AMQP.Channel.Close close) {
            return close.getReplyCode();
        }
        if (signal.getReason() instanceof AMQP.Connection.Close close) {
            return close.getReplyCode();
        }
        return -1;
    }

    private static String describe(ShutdownSignalException signal) {
        if (signal.getReason() instanceof AMQP.Channel.Close close) {
            return close.getReplyText() + " (" + close.getReplyCode() + ")";
        }
        if (signal.getReason() instanceof AMQP.Connection.Close close) {
            return "connection closed: " + close.getReplyText() + " (" + close.getReplyCode() + ")";
        }
        return signal.getMessage();
    }

    /** The key a return is matched by: where the message went and its x-message-id. */
    private static String returnKey(String exchange, String routingKey, AMQP.BasicProperties properties) {
        Object messageId = properties.getHeaders() == null ? null : properties.getHeaders().get(HeaderNames.MESSAGE_ID);
        return exchange + "\n" + routingKey + "\n" + messageId;
    }

    private static final class Pending {
        final String returnKey;
        final CompletableFuture<Void> outcome = new CompletableFuture<>();
        volatile String returned;

        Pending(String returnKey) {
            this.returnKey = returnKey;
        }
    }

    /** One confirm-mode channel and the publishes that await their confirm on it. */
    private static final class ConfirmingChannel implements ConfirmListener, ReturnListener, ShutdownListener {

        private final Channel channel;
        private final ConcurrentNavigableMap<Long, Pending> pending = new ConcurrentSkipListMap<>();

        ConfirmingChannel(Channel channel) throws IOException {
            this.channel = channel;
            channel.addShutdownListener(this);
            channel.addConfirmListener(this);
            channel.addReturnListener(this);
            channel.confirmSelect();
        }

        boolean isOpen() {
            return channel.isOpen();
        }

        CompletableFuture<Void> publish(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body) throws IOException {
            long sequence = channel.getNextPublishSeqNo();
            Pending publish = new Pending(returnKey(exchange, routingKey, properties));
            pending.put(sequence, publish);
            try {
                channel.basicPublish(exchange, routingKey, true, properties, body);
            } catch (IOException | RuntimeException e) {
                pending.remove(sequence);
                throw e;
            }
            if (!channel.isOpen()) {
                // closed while publishing: the shutdown listener may have run before this entry existed
                failAll(channel.getCloseReason());
            }
            return publish.outcome;
        }

        @Override
        public void handleAck(long sequence, boolean multiple) {
            for (Pending publish : settle(sequence, multiple)) {
                if (publish.returned != null) {
                    publish.outcome.completeExceptionally(new RabbitMqPublishException(publish.returned));
                } else {
                    publish.outcome.complete(null);
                }
            }
        }

        @Override
        public void handleNack(long sequence, boolean multiple) {
            for (Pending publish : settle(sequence, multiple)) {
                publish.outcome.completeExceptionally(new RabbitMqPublishException("nacked by RabbitMQ (basic.nack)"));
            }
        }

        private List<Pending> settle(long sequence, boolean multiple) {
            if (!multiple) {
                Pending publish = pending.remove(sequence);
                return publish == null ? List.of() : List.of(publish);
            }
            NavigableMap<Long, Pending> settled = pending.headMap(sequence, true);
            List<Pending> publishes = new ArrayList<>(settled.values());
            settled.clear();
            return publishes;
        }

        @Override
        public void handleReturn(int replyCode, String replyText, String exchange, String routingKey,
                                 AMQP.BasicProperties properties, byte[] body) {
            String key = returnKey(exchange, routingKey, properties);
            for (Pending publish : pending.values()) {
                if (publish.returned == null && publish.returnKey.equals(key)) {
                    publish.returned = replyText + " (" + replyCode + "): RabbitMQ returned the message, exchange '" + exchange
                            + "' routes routing key '" + routingKey + "' to no queue";
                    return;
                }
            }
        }

        @Override
        public void shutdownCompleted(ShutdownSignalException cause) {
            failAll(cause);
        }

        private void failAll(ShutdownSignalException cause) {
            String detail = cause == null ? "channel closed" : "channel closed: " + describe(cause);
            while (!pending.isEmpty()) {
                Map.Entry<Long, Pending> first = pending.pollFirstEntry();
                if (first != null) {
                    first.getValue().outcome.completeExceptionally(new RabbitMqPublishException(detail));
                }
            }
        }
    }
}
