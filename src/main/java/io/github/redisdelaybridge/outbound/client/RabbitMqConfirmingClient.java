package io.github.redisdelaybridge.outbound.client;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.BlockedListener;
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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * Publishing is serialized (one channel, written by one thread of its own); confirms arrive asynchronously, so
 * a batch is still pipelined.
 *
 * <p><b>Never blocks the caller.</b> {@link #publish} queues the message for the client's publishing thread and
 * returns at once: under a resource alarm RabbitMQ stops reading from a publishing connection, and a
 * {@code basicPublish} (or any channel RPC) on it blocks until the alarm clears. The broker announces this with
 * {@code connection.blocked}; from then until {@code connection.unblocked} every publish, the queued ones included,
 * fails at once with {@link BrokerBlockedException}: not sent, to be retried later. Messages already written
 * before the announcement are confirmed once the alarm clears (or time out at the caller).
 */
public final class RabbitMqConfirmingClient implements AutoCloseable {

    static final long VERIFIED_EXCHANGE_MEMORY_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(RabbitMqConfirmingClient.class);
    private static final long RECONNECT_PAUSE_MS = 1_000;
    /** A channel RPC (open, passive declare) that the broker does not answer in this time fails instead of hanging. */
    private static final int CHANNEL_RPC_TIMEOUT_MS = 10_000;

    /** Why and since when the broker blocks the publishing connection. */
    private record Block(String reason, long sinceEpochMs) {
    }

    private final ConnectionFactory factory;
    /** The cluster's nodes, tried in order; null: the factory's host and port. */
    private final java.util.List<com.rabbitmq.client.Address> addresses;
    private final String connectionName;
    private final Map<String, Long> exchangeVerifiedUntil = new ConcurrentHashMap<>();
    /** Publishes handed over and not yet started, in order; failed at once when the broker blocks. */
    private final ConcurrentLinkedQueue<QueuedPublish> queued = new ConcurrentLinkedQueue<>();
    /**
     * Whether a run of the publishing thread over {@link #queued} is scheduled and has not yet started: one wake-up of that
     * thread per burst of publishes, not one task per message.
     */
    private final AtomicBoolean sendScheduled = new AtomicBoolean();
    private final ExecutorService publishingThread;

    // written by the publishing thread only (close aside)
    private volatile Connection connection;
    private ConfirmingChannel channel;
    private long reconnectNotBefore;
    private String lastConnectFailure;
    private volatile boolean closed;
    private volatile Block block;

    /** {@code factory}: host, port, credentials and virtual host; automatic recovery is turned off here. */
    public RabbitMqConfirmingClient(ConnectionFactory factory, String connectionName) {
        this(factory, null, connectionName);
    }

    /** {@code addresses}: the nodes of a cluster, tried in order on every (re)connection. */
    public RabbitMqConfirmingClient(ConnectionFactory factory, java.util.List<com.rabbitmq.client.Address> addresses, String connectionName) {
        this.factory = factory;
        this.addresses = addresses == null ? null : java.util.List.copyOf(addresses);
        this.connectionName = connectionName;
        factory.setAutomaticRecoveryEnabled(false);
        factory.setTopologyRecoveryEnabled(false);
        factory.setChannelRpcTimeout(CHANNEL_RPC_TIMEOUT_MS);
        this.publishingThread = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "rabbitmq-publisher");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Queues the message for publishing; the future completes with the broker's verdict. Returns at once. */
    public CompletableFuture<Void> publish(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body) {
        Block blocked = block;
        if (blocked != null) {
            return CompletableFuture.failedFuture(notSent(blocked));
        }
        QueuedPublish publish = new QueuedPublish(exchange, routingKey, properties, body);
        queued.add(publish);
        if (sendScheduled.compareAndSet(false, true)) {
            try {
                publishingThread.execute(this::sendQueued);
            } catch (RejectedExecutionException stopped) {
                sendScheduled.set(false);
                for (QueuedPublish unsent; (unsent = queued.poll()) != null; ) {
                    unsent.outcome.completeExceptionally(new IllegalStateException("RabbitMQ publisher is closed"));
                }
            }
        }
        return publish.outcome;
    }

    /** On the publishing thread: sends what is queued, in order. A publish queued once this has started schedules another run. */
    private void sendQueued() {
        sendScheduled.set(false);
        for (QueuedPublish publish; (publish = queued.poll()) != null; ) {
            send(publish);
        }
    }

    /** On the publishing thread. */
    private void send(QueuedPublish publish) {
        if (publish.outcome.isDone()) {
            return; // the caller gave up on it (timed out), or the broker blocked meanwhile
        }
        Block blocked = block;
        if (blocked != null) {
            publish.outcome.completeExceptionally(notSent(blocked));
            return;
        }
        try {
            ConfirmingChannel open = openChannel();
            String missing = missingExchange(publish.exchange);
            if (missing != null) {
                publish.outcome.completeExceptionally(new RabbitMqPublishException(missing));
                return;
            }
            open.publish(publish.exchange, publish.routingKey, publish.properties, publish.body, publish.outcome);
        } catch (Exception e) {
            publish.outcome.completeExceptionally(e);
        }
    }

    private static BrokerBlockedException notSent(Block blocked) {
        return new BrokerBlockedException("not sent: RabbitMQ blocks the publishing connection (" + blocked.reason() + ") since "
                + (System.currentTimeMillis() - blocked.sinceEpochMs()) + " ms", blocked.sinceEpochMs());
    }

    /** The broker's connection.blocked / connection.unblocked, on the connection's own thread. */
    private final class BlockWatch implements BlockedListener, ShutdownListener {

        @Override
        public void handleBlocked(String reason) {
            block = new Block(reason, System.currentTimeMillis());
            LOG.warn("RabbitMQ blocked the publishing connection ({}): messages for RabbitMQ wait until it is unblocked;"
                    + " other targets are not affected", reason);
            for (QueuedPublish publish : queued) {
                publish.outcome.completeExceptionally(notSent(block));
            }
        }

        @Override
        public void handleUnblocked() {
            Block ended = block;
            block = null;
            if (ended != null) {
                LOG.info("RabbitMQ unblocked the publishing connection after {} ms", System.currentTimeMillis() - ended.sinceEpochMs());
            }
        }

        @Override
        public void shutdownCompleted(ShutdownSignalException cause) {
            block = null; // a new connection starts unblocked; the broker blocks it again if the alarm still holds
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
                connection = addresses == null ? factory.newConnection(connectionName) : factory.newConnection(addresses, connectionName);
                BlockWatch watch = new BlockWatch();
                connection.addBlockedListener(watch);
                connection.addShutdownListener(watch);
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
    public void close() {
        closed = true;
        publishingThread.shutdown();
        Connection open = connection;
        if (open != null && open.isOpen()) {
            try {
                open.close(5_000);
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

    /** A publish waiting for the publishing thread. */
    private static final class QueuedPublish {
        final String exchange;
        final String routingKey;
        final AMQP.BasicProperties properties;
        final byte[] body;
        final CompletableFuture<Void> outcome = new CompletableFuture<>();

        QueuedPublish(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body) {
            this.exchange = exchange;
            this.routingKey = routingKey;
            this.properties = properties;
            this.body = body;
        }
    }

    private static final class Pending {
        final String returnKey;
        final CompletableFuture<Void> outcome;
        final int bodyLength;
        volatile String returned;

        Pending(String returnKey, CompletableFuture<Void> outcome, int bodyLength) {
            this.returnKey = returnKey;
            this.outcome = outcome;
            this.bodyLength = bodyLength;
        }
    }

    /** RabbitMQ's text when it refuses a message for its size (rabbit_channel, 406 PRECONDITION_FAILED). */
    private static final Pattern TOO_LARGE =
            Pattern.compile("message size (\\d+) is larger than configured max size (\\d+)");

    /** The broker's max_message_size when the channel was closed for a message too large, else -1. */
    static long maxSizeRefused(ShutdownSignalException cause) {
        if (cause == null || closeCode(cause) != AMQP.PRECONDITION_FAILED) {
            return -1;
        }
        Matcher matcher = TOO_LARGE.matcher(describe(cause));
        return matcher.find() ? Long.parseLong(matcher.group(2)) : -1;
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

        void publish(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body, CompletableFuture<Void> outcome)
                throws IOException {
            long sequence = channel.getNextPublishSeqNo();
            Pending publish = new Pending(returnKey(exchange, routingKey, properties), outcome, body.length);
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
        }

        @Override
        public void handleAck(long sequence, boolean multiple) {
            for (Pending publish : settle(sequence, multiple)) {
                if (publish.returned != null) {
                    // unroutable: retrying cannot help until someone binds a queue, so it is dead-lettered at once
                    publish.outcome.completeExceptionally(new PermanentPublishFailure(publish.returned));
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
            long maxSize = maxSizeRefused(cause);
            while (!pending.isEmpty()) {
                Map.Entry<Long, Pending> first = pending.pollFirstEntry();
                if (first != null) {
                    Pending publish = first.getValue();
                    // the close names one message too large; the others on the channel were fine and are retried
                    publish.outcome.completeExceptionally(maxSize >= 0 && publish.bodyLength > maxSize
                            ? new MessageTooLargeException(describe(cause) + ": RabbitMQ refuses messages larger than its max_message_size")
                            : new RabbitMqPublishException(detail));
                }
            }
        }
    }
}
