package io.github.redisdelaybridge.deadletter;

import io.github.redisdelaybridge.message.DeadLetter;
import java.util.concurrent.CompletableFuture;

/** Where dead letters go; the future completes when the channel's broker has acknowledged one. */
public interface DeadLetterChannel {

    CompletableFuture<Void> send(DeadLetter deadLetter);

    /** The largest dead letter this channel takes for this one's origin ({@link DeadLetters} makes it fit first). */
    default ChannelLimit limit(DeadLetter deadLetter) {
        return ChannelLimit.NONE;
    }
}
