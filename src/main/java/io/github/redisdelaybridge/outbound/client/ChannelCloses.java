package io.github.redisdelaybridge.outbound.client;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.ShutdownSignalException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a closed RabbitMQ channel or connection says about why: its reply code and text, and a message too large. */
final class ChannelCloses {

    /** RabbitMQ's text when it refuses a message for its size (rabbit_channel, 406 PRECONDITION_FAILED). */
    private static final Pattern TOO_LARGE =
            Pattern.compile("message size (\\d+) is larger than configured max size (\\d+)");

    private ChannelCloses() {
    }

    /** The reply code of the channel's or connection's close, else -1. */
    static int closeCode(ShutdownSignalException signal) {
        if (signal.getReason() instanceof AMQP.Channel.Close close) {
            return close.getReplyCode();
        }
        if (signal.getReason() instanceof AMQP.Connection.Close close) {
            return close.getReplyCode();
        }
        return -1;
    }

    /** The broker's reply text and code, for a failure's message. */
    static String describe(ShutdownSignalException signal) {
        if (signal.getReason() instanceof AMQP.Channel.Close close) {
            return close.getReplyText() + " (" + close.getReplyCode() + ")";
        }
        if (signal.getReason() instanceof AMQP.Connection.Close close) {
            return "connection closed: " + close.getReplyText() + " (" + close.getReplyCode() + ")";
        }
        return signal.getMessage();
    }

    /** The broker's max_message_size when the channel was closed for a message too large, else -1. */
    static long maxSizeRefused(ShutdownSignalException cause) {
        if (cause == null || closeCode(cause) != AMQP.PRECONDITION_FAILED) {
            return -1;
        }
        Matcher matcher = TOO_LARGE.matcher(describe(cause));
        return matcher.find() ? Long.parseLong(matcher.group(2)) : -1;
    }
}
