package io.github.redisdelaybridge.outbound.client;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
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
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * One confirm-mode channel and the publishes that await their confirm on it. Each publish is remembered under its
 * sequence number until its ack or nack (a multiple ack settles every earlier one). RabbitMQ sends a return before the
 * ack of the same message, so a return marks the oldest pending publish with the same exchange, routing key and
 * {@code x-message-id}, and that publish fails when its ack arrives. A closed channel fails everything pending on it.
 */
final class ConfirmingChannel implements ConfirmListener, ReturnListener, ShutdownListener {

    /** A publish written to the channel and not yet confirmed. */
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

    /** Writes the message (mandatory); {@code outcome} completes with the broker's confirm, return or the channel's close. */
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
        String detail = cause == null ? "channel closed" : "channel closed: " + ChannelCloses.describe(cause);
        long maxSize = ChannelCloses.maxSizeRefused(cause);
        while (!pending.isEmpty()) {
            Map.Entry<Long, Pending> first = pending.pollFirstEntry();
            if (first != null) {
                Pending publish = first.getValue();
                // the close names one message too large; the others on the channel were fine and are retried
                publish.outcome.completeExceptionally(maxSize >= 0 && publish.bodyLength > maxSize
                        ? new MessageTooLargeException(ChannelCloses.describe(cause)
                        + ": RabbitMQ refuses messages larger than its max_message_size")
                        : new RabbitMqPublishException(detail));
            }
        }
    }

    /** The key a return is matched by: where the message went and its x-message-id. */
    private static String returnKey(String exchange, String routingKey, AMQP.BasicProperties properties) {
        Object messageId = properties.getHeaders() == null ? null : properties.getHeaders().get(HeaderNames.MESSAGE_ID);
        return exchange + "\n" + routingKey + "\n" + messageId;
    }
}
