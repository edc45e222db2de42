package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import java.util.ArrayList;
import java.util.List;

/** The headers a delivered message carries: the producer's own, plus the bridge's two. */
public final class DeliveryHeaders {

    private DeliveryHeaders() {
    }

    public static List<MessageHeader> of(Envelope envelope, long dueAt) {
        List<MessageHeader> headers = new ArrayList<>(envelope.headers().size() + 2);
        headers.addAll(envelope.headers());
        headers.add(MessageHeader.text(HeaderNames.MESSAGE_ID, envelope.messageId()));
        headers.add(MessageHeader.text(HeaderNames.DUE_AT, Long.toString(dueAt)));
        return headers;
    }
}
