package io.github.redisdelaybridge.deadletter;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.codec.DeadLetterCodec;
import io.github.redisdelaybridge.store.ClaimedMessage;
import io.github.redisdelaybridge.store.DelayStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Records dead letters in both places they belong: the dead-letter broker channel (for consumers) and
 * Redis's bounded dead-letter store (for listing and replay). A claimed message leaves the delivery
 * structures only after the broker channel has acknowledged it.
 */
public final class DeadLetters {

    private final DeadLetterChannel channel;
    private final DelayStore store;

    public DeadLetters(DeadLetterChannel channel, DelayStore store) {
        this.channel = channel;
        this.store = store;
    }

    /** Messages refused at ingest: completes when the channel and Redis both have all of them. */
    public CompletableFuture<Void> recordRejected(List<DeadLetter> deadLetters) {
        Map<String, byte[]> records = new LinkedHashMap<>();
        CompletableFuture<?>[] sends = new CompletableFuture<?>[deadLetters.size() + 1];
        for (int i = 0; i < deadLetters.size(); i++) {
            DeadLetter deadLetter = deadLetters.get(i);
            sends[i] = channel.send(deadLetter);
            records.put(deadLetter.messageId(), DeadLetterCodec.encode(deadLetter));
        }
        sends[deadLetters.size()] = store.storeDeadLetters(records);
        return CompletableFuture.allOf(sends);
    }

    /** A claimed message that will not be delivered: to the channel first, then moved in Redis. */
    public CompletableFuture<Long> recordUndeliverable(ClaimedMessage message, DeadLetter deadLetter) {
        return channel.send(deadLetter).thenCompose(sent -> store.deadLetter(message, DeadLetterCodec.encode(deadLetter)));
    }
}
