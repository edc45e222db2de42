package io.github.redisdelaybridge.deadletter;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import java.util.ArrayList;
import java.util.List;

/**
 * The headers a dead letter carries on every channel: the message's own (as the channel's broker
 * carries them), its {@code x-message-id} when it had none of its own, then the reason, detail, origin
 * and attempts. The counterpart of {@code outbound/DeliveryHeaders} for messages that were not delivered.
 */
final class DeadLetterHeaders {

    private DeadLetterHeaders() {
    }

    /** {@code carried}: the dead letter's headers as the channel maps them for its broker. */
    static List<MessageHeader> of(List<MessageHeader> carried, DeadLetter deadLetter) {
        List<MessageHeader> headers = new ArrayList<>(carried.size() + 5);
        headers.addAll(carried);
        if (deadLetter.messageId() != null && carried.stream().noneMatch(h -> h.name().equals(HeaderNames.MESSAGE_ID))) {
            headers.add(MessageHeader.text(HeaderNames.MESSAGE_ID, deadLetter.messageId()));
        }
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_REASON, deadLetter.reason().code()));
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_DETAIL, deadLetter.detail()));
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_ORIGIN, deadLetter.origin()));
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_ATTEMPTS, Integer.toString(deadLetter.attempts())));
        return headers;
    }
}
