package io.github.redisdelaybridge.admin;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.StrictUtf8;
import io.github.redisdelaybridge.message.codec.DeadLetterCodec;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.inspection.MessageFacts;
import io.github.redisdelaybridge.store.inspection.MessageState;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Turns what the store knows about an id into the JSON view of the admin API. Bytes that are not UTF-8 are shown as Base64. */
final class MessageViews {

    private MessageViews() {
    }

    /** The id in its current state ({@link MessageFacts#state()}); the body only when {@code withBody}. */
    static MessageView ofMessage(MessageFacts facts, boolean withBody) {
        MessageView.Builder view = new MessageView.Builder();
        view.id = facts.messageId();
        MessageState state = facts.state();
        view.state = state.code();
        switch (state) {
            case PENDING, IN_FLIGHT -> {
                view.dueAt = state == MessageState.PENDING ? facts.dueAt() : null;
                view.leaseUntil = state == MessageState.IN_FLIGHT ? facts.leaseUntil() : null;
                view.attempts = facts.attempts();
                view.size = facts.envelopeSize();
                addEnvelope(view, facts.messageId(), facts.envelope(), withBody);
            }
            case DEAD -> addDeadLetter(view, facts, withBody);
            case CANCELLED -> view.cancelledAt = facts.cancelledAt();
            case DELIVERED -> view.deliveredAt = facts.deliveredAt();
            case UNKNOWN -> {
                // nothing more is known
            }
        }
        return view.build();
    }

    /** The id's dead-letter record, whatever else the id is doing now; null when there is none. */
    static MessageView ofDeadLetter(MessageFacts facts, boolean withBody) {
        if (facts.deadRecord() == null) {
            return null;
        }
        MessageView.Builder view = new MessageView.Builder();
        view.id = facts.messageId();
        view.state = MessageState.DEAD.code();
        addDeadLetter(view, facts, withBody);
        return view.build();
    }

    private static void addEnvelope(MessageView.Builder view, String messageId, byte[] encoded, boolean withBody) {
        Envelope envelope;
        try {
            envelope = EnvelopeCodec.decode(messageId, encoded);
        } catch (RuntimeException e) {
            view.unreadable = e.getMessage();
            return;
        }
        view.target = envelope.target();
        view.origin = envelope.origin();
        addContent(view, envelope.key(), envelope.headers(), envelope.properties(), envelope.body(), withBody);
    }

    private static void addDeadLetter(MessageView.Builder view, MessageFacts facts, boolean withBody) {
        view.deadAt = facts.deadAt();
        view.size = (long) facts.deadRecord().length;
        DeadLetter deadLetter;
        try {
            deadLetter = DeadLetterCodec.decode(facts.messageId(), facts.deadRecord());
        } catch (RuntimeException e) {
            view.unreadable = e.getMessage();
            return;
        }
        view.reason = deadLetter.reason().code();
        view.detail = deadLetter.detail();
        view.attempts = deadLetter.attempts();
        view.target = deadLetter.target().isEmpty() ? null : deadLetter.target();
        view.origin = deadLetter.origin();
        addContent(view, deadLetter.key(), deadLetter.headers(), deadLetter.properties(), deadLetter.body(), withBody);
    }

    private static void addContent(MessageView.Builder view, byte[] key, List<MessageHeader> headers,
                                   java.util.Map<String, String> properties, byte[] body, boolean withBody) {
        if (key != null) {
            view.key = StrictUtf8.decode(key);
            view.keyBase64 = view.key == null ? base64(key) : null;
        }
        List<MessageView.HeaderView> headerViews = new ArrayList<>(headers.size());
        for (MessageHeader header : headers) {
            // A RabbitMQ header's value is kept as an AMQP field value (type octet first): show it as its text,
            // the way a Kafka target receives it, not as the encoding.
            byte[] value = header.plainBytes();
            String text = value == null ? null : StrictUtf8.decode(value);
            headerViews.add(new MessageView.HeaderView(header.name(), text, value != null && text == null ? base64(value) : null));
        }
        view.headers = headerViews;
        view.properties = properties.isEmpty() ? null : properties;
        if (body == null) {
            view.tombstone = true;
        } else if (withBody) {
            view.body = StrictUtf8.decode(body);
            view.bodyBase64 = view.body == null ? base64(body) : null;
        }
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }
}
