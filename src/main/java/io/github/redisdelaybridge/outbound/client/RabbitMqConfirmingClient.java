package io.github.redisdelaybridge.outbound.client;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.BlockedListener;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownListener;
import com.rabbitmq.client.ShutdownSignalException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
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
 *   <li>one channel in confirm mode, whose acks, nacks and returns settle each publish ({@link ConfirmingChannel});</li>
 *   <li>a closed channel or connection fails everything pending on it; the next publish opens new ones
 *       (no automatic recovery: a publish whose channel died is reported failed and retried by the
 *       dispatcher, never replayed behind its back; {@link PublishingConnection});</li>
 *   <li>an exchange is checked with a passive declare before the first publish to it and then now and again, so a
 *       message for a missing exchange fails alone ({@link VerifiedExchanges}).</li>
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

    private static final Logger LOG = LoggerFactory.getLogger(RabbitMqConfirmingClient.class);

    /** Why and since when the broker blocks the publishing connection. */
    private record Block(String reason, long sinceEpochMs) {
    }

    private final PublishingConnection connection;
    private final VerifiedExchanges exchanges = new VerifiedExchanges();
    /** Publishes handed over and not yet started, in order; failed at once when the broker blocks. */
    private final ConcurrentLinkedQueue<QueuedPublish> queued = new ConcurrentLinkedQueue<>();
    /**
     * Whether a run of the publishing thread over {@link #queued} is scheduled and has not yet started: one wake-up of that
     * thread per burst of publishes, not one task per message.
     */
    private final AtomicBoolean sendScheduled = new AtomicBoolean();
    private final ExecutorService publishingThread;
    private volatile Block block;

    /** {@code factory}: host, port, credentials and virtual host; automatic recovery is turned off here. */
    public RabbitMqConfirmingClient(ConnectionFactory factory, String connectionName) {
        this(factory, null, connectionName);
    }

    /** {@code addresses}: the nodes of a cluster, tried in order on every (re)connection. */
    public RabbitMqConfirmingClient(ConnectionFactory factory, List<Address> addresses, String connectionName) {
        BlockWatch watch = new BlockWatch();
        this.connection = new PublishingConnection(factory, addresses, connectionName, watch, watch);
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
            ConfirmingChannel open = connection.channel();
            String missing = exchanges.missing(publish.exchange, connection.connection());
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

    @Override
    public void close() {
        publishingThread.shutdown();
        connection.close();
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
}
