package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.ParsedTargets;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.outbound.TargetLimit;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;

/**
 * One claimed message on its way: what it carries, where it goes and what became of it. Its {@link #outcome} completes once
 * its broker answered, or once it failed or was not sent; a message that cannot be read fails at once and has no target.
 */
final class OutgoingMessage {

    final ClaimedMessage message;
    final Envelope envelope;
    final Target target;
    final CompletableFuture<Void> outcome = new CompletableFuture<>();
    /** Handed to its broker (not merely waiting for its lane). */
    volatile boolean sent;
    /** Why it failed, unwrapped; null once it was delivered. */
    volatile Throwable failure;
    /** Counted in its target's load ({@link TargetLoad}), so settling it frees that room. */
    boolean admitted;
    long sentAtNanos;
    /** The configured pattern that governs its target ({@link TargetControls}), or null. */
    TargetLimit limit;

    private OutgoingMessage(ClaimedMessage message, Envelope envelope, Target target) {
        this.message = message;
        this.envelope = envelope;
        this.target = target;
    }

    /** The claimed message decoded with its target; failed already if its payload is gone or cannot be read. */
    static OutgoingMessage of(ClaimedMessage message, ParsedTargets targets) {
        if (message.encodedEnvelope() == null) {
            return failed(message, new PayloadMissingException(message));
        }
        try {
            if (!message.idResolved()) {
                throw new IllegalArgumentException("message id still packed in Redis's stored form: the bridge could not turn the stem code of"
                        + " member " + HexFormat.of().formatHex(message.member()) + " back into a name, because the slot's names hash lacks it"
                        + " (was that key deleted or replaced?)");
            }
            Envelope envelope = EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope());
            return new OutgoingMessage(message, envelope, targets.parse(envelope.target()));
        } catch (RuntimeException unreadable) {
            return failed(message, new UnreadableRecordException(unreadable));
        }
    }

    /** Whether it can be published: it was read and has a target. */
    boolean readable() {
        return target != null;
    }

    private static OutgoingMessage failed(ClaimedMessage message, RuntimeException why) {
        OutgoingMessage outgoing = new OutgoingMessage(message, null, null);
        outgoing.outcome.completeExceptionally(why);
        return outgoing;
    }
}
