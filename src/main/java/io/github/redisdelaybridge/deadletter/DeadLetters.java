package io.github.redisdelaybridge.deadletter;

import io.github.redisdelaybridge.deadletter.DeadLetterSize.WholeKept;
import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.codec.DeadLetterCodec;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.PublishFailures;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import io.github.redisdelaybridge.store.ingest.IngestStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records dead letters in both places they belong: the dead-letter broker channel (for consumers) and Redis's bounded
 * dead-letter store (for listing and replay). Redis gets a record only once the channel has acknowledged the dead letter
 * (or refused it for good, below), so a dead letter retried after a failed send never leaves a record per try.
 *
 * <p><b>Dead letters always fit.</b> The Redis record keeps the whole message when its record is at most
 * {@code storeRecordMaxBytes}, else it is kept without the body (and then without key and headers). The channel gets the
 * dead letter in the largest form its limit takes ({@link DeadLetterSize}); when the broker still refuses it for its size
 * (its own limit is lower than the bridge's setting), it is sent again in the smallest form. When the channel refuses even
 * that, or refuses it for good for any other reason (a topic the bridge may not write to, no queue bound), the dead
 * letter is kept in Redis only: logged at ERROR and counted ({@code bridge_dead_letters_not_sent_total}), never retried
 * without end, so it never holds up an inbound partition or queue. A failure that may pass (broker down) fails the
 * returned future, and the caller retries.
 */
public final class DeadLetters {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

    private final DeadLetterChannel channel;
    private final IngestStore ingest;
    private final DispatchStore dispatch;
    private final long storeRecordMaxBytes;
    private final BridgeMetrics metrics;

    /**
     * @param ingest              records messages refused at ingest
     * @param dispatch            moves claimed messages that will not be delivered
     * @param storeRecordMaxBytes largest dead-letter record kept whole in Redis; a larger one is kept without its body
     */
    public DeadLetters(DeadLetterChannel channel, IngestStore ingest, DispatchStore dispatch, long storeRecordMaxBytes, BridgeMetrics metrics) {
        this.channel = channel;
        this.ingest = ingest;
        this.dispatch = dispatch;
        this.storeRecordMaxBytes = storeRecordMaxBytes;
        this.metrics = metrics;
    }

    /** Messages refused at ingest: completes when the channel (or, for a refused one, Redis alone) and Redis have all of them. */
    public CompletableFuture<Void> recordRejected(List<DeadLetter> deadLetters) {
        Map<String, byte[]> records = new LinkedHashMap<>();
        CompletableFuture<?>[] sends = new CompletableFuture<?>[deadLetters.size()];
        for (int i = 0; i < deadLetters.size(); i++) {
            DeadLetter deadLetter = deadLetters.get(i);
            StoreRecord record = storeRecord(deadLetter);
            sends[i] = send(deadLetter, record.wholeKept());
            records.put(deadLetter.messageId(), record.bytes());
        }
        return CompletableFuture.allOf(sends).thenCompose(sent -> ingest.storeDeadLetters(records));
    }

    /** A claimed message that will not be delivered: to the channel first, then moved in Redis. */
    public CompletableFuture<Long> recordUndeliverable(ClaimedMessage message, DeadLetter deadLetter) {
        StoreRecord record = storeRecord(deadLetter);
        return send(deadLetter, record.wholeKept()).thenCompose(sent -> dispatch.deadLetter(message, record.bytes()));
    }

    private record StoreRecord(byte[] bytes, WholeKept wholeKept) {
    }

    /** The record Redis keeps: the whole dead letter when it fits, else a smaller form that says what it lacks. */
    private StoreRecord storeRecord(DeadLetter deadLetter) {
        byte[] whole = DeadLetterCodec.encode(deadLetter);
        if (whole.length <= storeRecordMaxBytes) {
            return new StoreRecord(whole, WholeKept.IN_STORE);
        }
        DeadLetter smaller = DeadLetterSize.fit(deadLetter, storeRecordMaxBytes, "the dead-letter store's record limit", WholeKept.NOWHERE);
        return new StoreRecord(DeadLetterCodec.encode(smaller), WholeKept.NOWHERE);
    }

    /** To the channel in the form that fits it; completes normally also when the channel refused it for good (see above). */
    private CompletableFuture<Void> send(DeadLetter deadLetter, WholeKept wholeKept) {
        ChannelLimit limit = channel.limit(deadLetter);
        DeadLetter fitting = DeadLetterSize.fit(deadLetter, limit.maxBytes(), limit.setting(), wholeKept);
        if (fitting != deadLetter) {
            countTrimmed(fitting);
        }
        return channel.send(fitting).exceptionallyCompose(failure -> {
            if (PublishFailures.isTooLarge(failure) && !isBare(fitting)) {
                DeadLetter bare = DeadLetterSize.bare(deadLetter, DeadLetterSize.of(deadLetter), limit.maxBytes(),
                        limit.setting() + " (the broker refused " + DeadLetterSize.of(fitting) + " bytes: its own limit is lower)", wholeKept);
                countTrimmed(bare);
                return channel.send(bare).exceptionallyCompose(again -> refusedOrFailed(deadLetter, again));
            }
            return refusedOrFailed(deadLetter, failure);
        });
    }

    private CompletableFuture<Void> refusedOrFailed(DeadLetter deadLetter, Throwable failure) {
        if (!PublishFailures.isPermanent(failure)) {
            return CompletableFuture.failedFuture(failure);
        }
        metrics.deadLetterNotSent(deadLetter.reason());
        LOG.error("the dead-letter channel refused the dead letter of {} ({}) for good: {}; it is kept in Redis only"
                        + " (GET /api/dead-letters/<id>), not retried", deadLetter.messageId(), deadLetter.reason().code(),
                Failures.rootMessage(failure));
        return CompletableFuture.completedFuture(null);
    }

    private static boolean isBare(DeadLetter deadLetter) {
        return deadLetter.headers().stream().anyMatch(h -> h.name().equals(HeaderNames.DEAD_LETTER_DROPPED)
                && "body,key,headers".equals(new String(h.plainBytes(), java.nio.charset.StandardCharsets.UTF_8)));
    }

    private void countTrimmed(DeadLetter trimmed) {
        metrics.deadLetterTrimmed(trimmed.reason(), isBare(trimmed) ? "body,key,headers" : "body");
    }
}
