package io.github.redisdelaybridge.deadletter;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Makes a dead letter fit a size limit: the whole message when it fits, else without its body, else without its key and
 * headers too, with {@code x-dead-letter-dropped} naming what was left out and {@code x-dead-letter-dropped-detail} saying
 * how large it was and where the whole message can be fetched. The reason, detail, origin, attempts and id always stay,
 * and they alone are small (the detail is bounded, ids are at most 512 bytes), so the last form fits any sane limit.
 *
 * <p>The size counted is an upper estimate of what a broker weighs: body, key, every header name and value, properties,
 * the headers the bridge adds, plus {@value #OVERHEAD_BYTES} bytes for the record's framing.
 */
public final class DeadLetterSize {

    /** Framing of a Kafka record batch and record, or an AMQP frame's headers, rounded up generously. */
    static final int OVERHEAD_BYTES = 512;

    private DeadLetterSize() {
    }

    /** Where the whole message can be had when a channel gets it without its body. */
    public enum WholeKept {
        /** The Redis dead-letter record holds the whole message: the admin API returns it. */
        IN_STORE,
        /** Nowhere in the bridge: only the origin (a Kafka offset while the topic retains it) may still have it. */
        NOWHERE
    }

    /** Estimated bytes of the dead letter as a channel sends it, the headers the bridge adds included. */
    public static long of(DeadLetter deadLetter) {
        long size = OVERHEAD_BYTES + length(deadLetter.key()) + length(deadLetter.body()) + headersLength(deadLetter.headers());
        for (Map.Entry<String, String> property : deadLetter.properties().entrySet()) {
            size += utf8(property.getKey()) + utf8(property.getValue());
        }
        return size + utf8(deadLetter.messageId()) + utf8(deadLetter.detail()) + utf8(deadLetter.origin()) + 200;
    }

    /** The dead letter itself when it fits {@code maxBytes}, else a smaller form of it (see the class comment). */
    public static DeadLetter fit(DeadLetter deadLetter, long maxBytes, String limitName, WholeKept wholeKept) {
        long whole = of(deadLetter);
        if (whole <= maxBytes) {
            return deadLetter;
        }
        DeadLetter withoutBody = withoutBody(deadLetter, whole, maxBytes, limitName, wholeKept);
        return of(withoutBody) <= maxBytes ? withoutBody : bare(deadLetter, whole, maxBytes, limitName, wholeKept);
    }

    /** Without body: the key, headers and properties stay, the dropped headers say what is missing. */
    static DeadLetter withoutBody(DeadLetter deadLetter, long whole, long maxBytes, String limitName, WholeKept wholeKept) {
        List<MessageHeader> headers = new ArrayList<>(deadLetter.headers());
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_DROPPED, "body"));
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_DROPPED_DETAIL,
                droppedDetail(deadLetter, whole, maxBytes, limitName, wholeKept)));
        return new DeadLetter(deadLetter.messageId(), deadLetter.reason(), deadLetter.detail(), deadLetter.origin(), deadLetter.target(),
                deadLetter.attempts(), deadLetter.key(), headers, deadLetter.properties(), new byte[0]);
    }

    /** The smallest form: only what the bridge adds (reason, detail, origin, attempts, id) and what was dropped. */
    public static DeadLetter bare(DeadLetter deadLetter, long whole, long maxBytes, String limitName, WholeKept wholeKept) {
        List<MessageHeader> headers = List.of(
                MessageHeader.text(HeaderNames.DEAD_LETTER_DROPPED, "body,key,headers"),
                MessageHeader.text(HeaderNames.DEAD_LETTER_DROPPED_DETAIL, droppedDetail(deadLetter, whole, maxBytes, limitName, wholeKept)));
        return new DeadLetter(deadLetter.messageId(), deadLetter.reason(), deadLetter.detail(), deadLetter.origin(), deadLetter.target(),
                deadLetter.attempts(), null, headers, Map.of(), new byte[0]);
    }

    private static String droppedDetail(DeadLetter deadLetter, long whole, long maxBytes, String limitName, WholeKept wholeKept) {
        String where = wholeKept == WholeKept.IN_STORE
                ? "the whole message is kept in the bridge's dead-letter store: GET /api/dead-letters/{id}?body=true"
                : "the bridge does not keep the whole message (too large for its dead-letter store); it came from " + deadLetter.origin();
        return "the dead letter (about " + whole + " bytes: body " + length(deadLetter.body()) + ", key " + length(deadLetter.key())
                + ", " + deadLetter.headers().size() + " headers " + headersLength(deadLetter.headers()) + ") exceeds " + limitName
                + " (" + maxBytes + " bytes); " + where;
    }

    private static long headersLength(List<MessageHeader> headers) {
        long size = 0;
        for (MessageHeader header : headers) {
            size += utf8(header.name()) + length(header.value()) + 8;
        }
        return size;
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    private static int utf8(String text) {
        return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
    }
}
