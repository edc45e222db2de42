package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.inbound.DelayHeaders;
import io.github.redisdelaybridge.store.Envelope;
import io.github.redisdelaybridge.store.MessageHeader;
import java.util.ArrayList;
import java.util.List;

/** The headers a delivered message carries: the producer's own, plus the bridge's two. */
public final class DeliveryHeaders {

    private DeliveryHeaders() {
    }

    public static List<MessageHeader> of(Envelope envelope, long dueAt) {
        List<MessageHeader> headers = new ArrayList<>(envelope.headers().size() + 2);
        headers.addAll(envelope.headers());
        headers.add(MessageHeader.text(DelayHeaders.MESSAGE_ID, envelope.messageId()));
        headers.add(MessageHeader.text(DelayHeaders.DUE_AT, Long.toString(dueAt)));
        return headers;
    }
}
