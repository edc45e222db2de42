package io.github.redisdelaybridge.deadletter;

/**
 * The largest dead letter a channel's broker accepts, and the setting that says so (named in the dead letter's
 * {@code x-dead-letter-dropped-detail} when it had to go without parts of the message).
 */
public record ChannelLimit(long maxBytes, String setting) {

    /** A channel with no limit of its own (tests). */
    public static final ChannelLimit NONE = new ChannelLimit(Long.MAX_VALUE, "no limit");
}
