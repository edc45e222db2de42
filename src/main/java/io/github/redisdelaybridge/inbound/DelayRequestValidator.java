package io.github.redisdelaybridge.inbound;


import io.github.redisdelaybridge.message.AmqpProperties;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.Excerpt;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.RoutingKeyPlaceholder;
import io.github.redisdelaybridge.message.StrictUtf8;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns an inbound message into a schedule request, or rejects it with a stable reason. Checks the
 * delay headers, the target and the message id; never throws for bad input. A message with an
 * {@code x-control} header is a control request instead (cancel, reschedule or replace the message named by
 * its {@code x-message-id}); the body, key, target and other headers of a cancel or reschedule are ignored, while a
 * replace carries the replacement and is checked exactly as a new message is (same limits, same reasons).
 * {@code {routing-key}} in a target ({@code x-target} or the source's default) is replaced by the message's routing key before
 * the target is checked, so the allow-list and the loop guard judge, and the envelope stores, the target the message actually goes to.
 *
 * <p>Every header it reads is first held to its limit in bytes ({@link HeaderNames#MAX_DUE_TIME_BYTES} and the others),
 * before it is decoded or parsed: the time to decide a message does not grow with what a producer puts in a header, so
 * one record cannot hold its partition. A cancel or reschedule is not held to the payload limit: only its short headers are
 * read, and its body is dropped.
 */
public final class DelayRequestValidator {

    /** Characters of an unexpected exception's message kept in a detail. */
    private static final int MAX_UNEXPECTED_CHARS = 200;

    private final DueTimeParser dueTimeParser;
    private final TargetChecks targetChecks;
    private final Map<String, String> defaultTargets;
    private final long maxPayloadBytes;

    public DelayRequestValidator(DueTimeParser dueTimeParser, TargetPolicy targetPolicy,
                                 Map<String, String> defaultTargetsBySource, long maxPayloadBytes) {
        this.dueTimeParser = dueTimeParser;
        this.targetChecks = new TargetChecks(targetPolicy);
        this.defaultTargets = Map.copyOf(defaultTargetsBySource);
        this.maxPayloadBytes = maxPayloadBytes;
    }

    /** Camel bean method: validates every message of a batch. */
    public ValidatedBatch validate(InboundBatch batch) {
        List<ValidatedMessage> validated = new ArrayList<>(batch.messages().size());
        for (InboundMessage message : batch.messages()) {
            validated.add(validate(message));
        }
        return new ValidatedBatch(validated, batch.acknowledgement());
    }

    public ValidatedMessage validate(InboundMessage message) {
        try {
            if (message.lastHeader(HeaderNames.CONTROL).isPresent()) {
                return new ValidatedMessage.Control(message, toControl(message));
            }
            return new ValidatedMessage.Accepted(message, toRequest(message));
        } catch (Rejection rejection) {
            return new ValidatedMessage.Rejected(message, rejection);
        } catch (RuntimeException unexpected) {
            // Never let one odd record stop the consumer: it would be polled again and again.
            return new ValidatedMessage.Rejected(message, new Rejection(DeadLetterReason.INVALID_MESSAGE,
                    "unexpected " + unexpected.getClass().getSimpleName() + ": "
                            + Excerpt.of(String.valueOf(unexpected.getMessage()), MAX_UNEXPECTED_CHARS)));
        }
    }

    private ScheduleRequest toRequest(InboundMessage message) throws Rejection {
        return requestOf(message, messageId(message));
    }

    /**
     * The message as it is to be stored under {@code messageId}: held to the payload limit, with its due time, its target,
     * and the headers the bridge does not consume (a replace's {@code x-control} is one of those it consumes).
     */
    private ScheduleRequest requestOf(InboundMessage message, String messageId) throws Rejection {
        if (message.size() > maxPayloadBytes) {
            throw new Rejection(DeadLetterReason.PAYLOAD_TOO_LARGE,
                    "message is " + message.size() + " bytes (body, key and headers); the maximum is " + maxPayloadBytes);
        }
        DueTime dueTime = dueTime(message);
        Target target = target(message);
        group(message);
        List<MessageHeader> passedOn = new ArrayList<>(message.headers().size());
        for (MessageHeader header : message.headers()) {
            if (!HeaderNames.CONSUMED_BY_BRIDGE.contains(header.name()) && !header.name().equals(HeaderNames.MESSAGE_ID)
                    && !header.name().equals(HeaderNames.CONTROL)) {
                passedOn.add(header);
            }
        }
        Envelope envelope = new Envelope(messageId, target.uri(), message.origin(), message.key(), passedOn,
                message.properties(), message.body());
        return new ScheduleRequest(messageId, dueTime, envelope);
    }

    private ControlRequest toControl(InboundMessage message) throws Rejection {
        String action = text(message, HeaderNames.CONTROL, HeaderNames.MAX_CONTROL_BYTES, DeadLetterReason.INVALID_CONTROL).orElseThrow().strip();
        if (action.equalsIgnoreCase(ControlRequest.CANCEL)) {
            return new ControlRequest.Cancel(controlledMessageId(message, ControlRequest.CANCEL));
        }
        if (action.equalsIgnoreCase(ControlRequest.RESCHEDULE)) {
            return new ControlRequest.Reschedule(controlledMessageId(message, ControlRequest.RESCHEDULE), dueTime(message));
        }
        if (action.equalsIgnoreCase(ControlRequest.REPLACE)) {
            return new ControlRequest.Replace(requestOf(message, controlledMessageId(message, ControlRequest.REPLACE)));
        }
        if (action.equalsIgnoreCase(ControlRequest.CANCEL_GROUP)) {
            return new ControlRequest.CancelGroup(controlledGroup(message, ControlRequest.CANCEL_GROUP));
        }
        if (action.equalsIgnoreCase(ControlRequest.RESCHEDULE_GROUP)) {
            return new ControlRequest.RescheduleGroup(controlledGroup(message, ControlRequest.RESCHEDULE_GROUP), dueTime(message));
        }
        throw new Rejection(DeadLetterReason.INVALID_CONTROL, "x-control must be '" + ControlRequest.CANCEL + "', '"
                + ControlRequest.RESCHEDULE + "', '" + ControlRequest.REPLACE + "', '" + ControlRequest.CANCEL_GROUP + "' or '"
                + ControlRequest.RESCHEDULE_GROUP + "', got '" + Excerpt.of(action) + "'");
    }

    /** The id a control message names: required, since a control message's own default id names nothing. */
    private String controlledMessageId(InboundMessage message, String action) throws Rejection {
        if (message.lastHeader(HeaderNames.MESSAGE_ID).isEmpty()) {
            throw new Rejection(DeadLetterReason.INVALID_CONTROL,
                    "x-control: " + action + " needs x-message-id, the id of the message to " + action);
        }
        return messageId(message);
    }

    /** The group a group control names: required. */
    private static String controlledGroup(InboundMessage message, String action) throws Rejection {
        return group(message).orElseThrow(() -> new Rejection(DeadLetterReason.INVALID_CONTROL,
                "x-control: " + action + " needs x-group, the group whose pending messages to " + action.replace("-group", "")));
    }

    /**
     * The message's group, checked as the store reads it ({@code lua/lib/groups}): one {@code x-group} header, 1 to 256 bytes of
     * printable UTF-8 text, as raw bytes or a RabbitMQ string or byte array (a typed number would be indexed as nothing).
     * Its bytes are the group's name exactly, never stripped.
     */
    private static Optional<String> group(InboundMessage message) throws Rejection {
        List<MessageHeader> headers = message.headers().stream().filter(h -> h.name().equals(HeaderNames.GROUP)).toList();
        if (headers.isEmpty()) {
            return Optional.empty();
        }
        if (headers.size() > 1) {
            throw new Rejection(DeadLetterReason.INVALID_GROUP, "x-group comes " + headers.size() + " times; a message has one group");
        }
        MessageHeader header = headers.get(0);
        // an AMQP field value starts with its type: 'S' a long string, 'x' a byte array
        byte[] fieldValue = header.value();
        if (header.format() == MessageHeader.Format.AMQP && (fieldValue == null || fieldValue.length == 0
                || (fieldValue[0] != 'S' && fieldValue[0] != 'x'))) {
            throw new Rejection(DeadLetterReason.INVALID_GROUP, "x-group must be a string or byte array, not the AMQP field type '"
                    + (fieldValue == null || fieldValue.length == 0 ? "V" : Character.toString(fieldValue[0])) + "'");
        }
        String group = text(message, HeaderNames.GROUP, HeaderNames.MAX_GROUP_BYTES, DeadLetterReason.INVALID_GROUP).orElseThrow();
        if (group.isEmpty()) {
            throw new Rejection(DeadLetterReason.INVALID_GROUP, "x-group must be 1 to " + HeaderNames.MAX_GROUP_BYTES
                    + " bytes of UTF-8 text, not empty");
        }
        for (int i = 0; i < group.length(); i++) {
            char c = group.charAt(i);
            if (Character.isISOControl(c) || c == 0x2028 || c == 0x2029) {
                throw new Rejection(DeadLetterReason.INVALID_GROUP, String.format("x-group holds the control character U+%04X at"
                        + " character %d; a group must be printable text", (int) c, i));
            }
        }
        return Optional.of(group);
    }

    private DueTime dueTime(InboundMessage message) throws Rejection {
        Optional<String> delay = text(message, HeaderNames.DELAY, HeaderNames.MAX_DUE_TIME_BYTES, DeadLetterReason.INVALID_DELAY);
        Optional<String> deliverAt = text(message, HeaderNames.DELIVER_AT, HeaderNames.MAX_DUE_TIME_BYTES, DeadLetterReason.INVALID_DELAY);
        if (delay.isPresent() && deliverAt.isPresent()) {
            throw new Rejection(DeadLetterReason.CONFLICTING_DELAY, "set x-delay or x-deliver-at, not both");
        }
        if (delay.isPresent()) {
            return dueTimeParser.parseDelay(delay.get());
        }
        if (deliverAt.isPresent()) {
            return dueTimeParser.parseDeliverAt(deliverAt.get());
        }
        throw new Rejection(DeadLetterReason.MISSING_DELAY, "no x-delay or x-deliver-at header");
    }

    private Target target(InboundMessage message) throws Rejection {
        Optional<String> header = text(message, HeaderNames.TARGET, HeaderNames.MAX_TARGET_BYTES, DeadLetterReason.INVALID_TARGET);
        String text = header.orElse(defaultTargets.get(message.source()));
        if (text == null) {
            throw new Rejection(DeadLetterReason.MISSING_TARGET,
                    "no x-target header, and " + message.source() + " has no default target configured");
        }
        return targetChecks.check(withRoutingKey(text.strip(), message, header.isPresent() ? "x-target" : "the default target of "
                + message.source()));
    }

    /** The target text with {@code {routing-key}} replaced by the message's routing key; {@code named}: where the text came from. */
    private static String withRoutingKey(String text, InboundMessage message, String named) throws Rejection {
        if (!RoutingKeyPlaceholder.isIn(text)) {
            return text;
        }
        if (message.routingKey() == null) {
            throw new Rejection(DeadLetterReason.INVALID_TARGET, named + " '" + Excerpt.of(text) + "' names "
                    + RoutingKeyPlaceholder.PLACEHOLDER + ", the routing key of a message from RabbitMQ; this message has none"
                    + " (it came from " + Excerpt.of(message.origin()) + ")");
        }
        return RoutingKeyPlaceholder.resolve(text, message.routingKey());
    }

    private String messageId(InboundMessage message) throws Rejection {
        Optional<MessageHeader> header = message.lastHeader(HeaderNames.MESSAGE_ID);
        if (header.isEmpty()) {
            // an AMQP message-id is the producer's choice too
            String amqpMessageId = message.properties().get(AmqpProperties.MESSAGE_ID);
            refuseGeneratedForm(amqpMessageId, AmqpProperties.MESSAGE_ID);
            refuseControlCharacters(amqpMessageId, AmqpProperties.MESSAGE_ID);
            return message.defaultMessageId();
        }
        String id = text(message, HeaderNames.MESSAGE_ID, HeaderNames.MAX_MESSAGE_ID_BYTES, DeadLetterReason.INVALID_MESSAGE_ID)
                .orElse("").strip();
        if (id.isEmpty()) {
            throw new Rejection(DeadLetterReason.INVALID_MESSAGE_ID,
                    "x-message-id must be 1 to " + HeaderNames.MAX_MESSAGE_ID_BYTES + " bytes of UTF-8 text, not blank");
        }
        refuseGeneratedForm(id, HeaderNames.MESSAGE_ID);
        refuseControlCharacters(id, HeaderNames.MESSAGE_ID);
        return id;
    }

    /**
     * An id is printable text: it names the message in logs, the admin API's paths and the console, where a line break or
     * an escape sequence would forge a line or a screen.
     */
    private static void refuseControlCharacters(String id, String from) throws Rejection {
        if (id == null) {
            return;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (Character.isISOControl(c) || c == 0x2028 || c == 0x2029) {
                throw new Rejection(DeadLetterReason.INVALID_MESSAGE_ID, String.format("%s holds the control character U+%04X at"
                        + " character %d; an id must be printable text", from, (int) c, i));
            }
        }
    }

    /** A producer's id never names a generated one (another producer's message): {@link GeneratedIds}. */
    private static void refuseGeneratedForm(String id, String from) throws Rejection {
        if (id != null && GeneratedIds.isGenerated(id.strip())) {
            throw new Rejection(DeadLetterReason.INVALID_MESSAGE_ID, from + " '" + id.strip() + "' has the form of the ids the bridge"
                    + " generated for messages without one (" + GeneratedIds.FORMS + "); choose an id of another form");
        }
    }

    /**
     * The last value of a header as strict UTF-8 text; more than {@code maxBytes} bytes, or malformed ones, are rejected
     * with {@code reason}. A typed RabbitMQ value is read as its text (an AMQP integer 1500 as "1500").
     */
    private static Optional<String> text(InboundMessage message, String name, int maxBytes, DeadLetterReason reason) throws Rejection {
        Optional<MessageHeader> header = message.lastHeader(name);
        if (header.isEmpty()) {
            return Optional.empty();
        }
        byte[] value = header.get().plainBytes();
        if (value == null) {
            throw new Rejection(reason, name + " header has no value");
        }
        if (value.length > maxBytes) {
            throw new Rejection(reason, name + " is " + value.length + " bytes, more than the " + maxBytes + " allowed: '"
                    + Excerpt.of(value) + "'");
        }
        String text = StrictUtf8.decode(value);
        if (text == null) {
            throw new Rejection(reason, name + " header is not valid UTF-8");
        }
        return Optional.of(text);
    }
}
