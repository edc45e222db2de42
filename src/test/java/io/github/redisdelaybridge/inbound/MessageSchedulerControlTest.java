package io.github.redisdelaybridge.inbound;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.store.inspection.MessageFacts;
import io.github.redisdelaybridge.store.inspection.MessageState;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Control messages through MessageScheduler against the real Redis: order within a batch and across
 * batches, outcomes logged and counted, bad controls dead-lettered, controls never stored (a replace stores only its
 * replacement, under the id it names).
 */
class MessageSchedulerControlTest {

    private static final long MAX_DELAY_MS = 86_400_000;

    private static RedisConnection connection;

    private final List<DeadLetter> deadLettered = new ArrayList<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final List<Long> wakeups = new ArrayList<>();
    private String prefix;
    private StoreFaces store;
    private MessageScheduler scheduler;
    private final DelayRequestValidator validator = new DelayRequestValidator(new DueTimeParser(MAX_DELAY_MS),
            new TargetPolicy(List.of("kafka:*"), Set.of(), Set.of("kafka")), Map.of(), 10_000);
    private int offset;

    @BeforeAll
    static void connect() {
        connection = new RedisConnection(LocalRedis.URI, Duration.ofSeconds(10));
    }

    @AfterAll
    static void disconnect() {
        connection.close();
    }

    @BeforeEach
    void startClean(TestInfo test) {
        prefix = "unit-scheduler-" + test.getTestMethod().orElseThrow().getName();
        LocalRedis.deleteKeys(prefix);
        store = StoreFaces.over(connection.async(), new Keys(prefix, 2), new StoreLimits(MAX_DELAY_MS, 60_000, 60_000, 1_000, 60_000));
        DeadLetters deadLetters = new DeadLetters(deadLetter -> {
            synchronized (deadLettered) {
                deadLettered.add(deadLetter);
            }
            return CompletableFuture.completedFuture(null);
        }, store.ingest(), store.dispatch(), 1 << 20, new BridgeMetrics(meters));
        scheduler = new MessageScheduler(store.ingest(), store.inspection(), io.github.redisdelaybridge.store.connection.DurabilityBarrier.none(), deadLetters, wakeups::add, () -> false, new BridgeMetrics(meters), 0,
                Broker.KAFKA);
    }

    @AfterEach
    void deleteKeys() {
        LocalRedis.deleteKeys(prefix);
    }

    @Test
    void aMessageAndItsCancelInOneBatchEndCancelledWhicheverCameFirst() throws Exception {
        IngestReport messageFirst = ingest(delayed("a", 60_000), cancel("a"));
        IngestReport cancelFirst = ingest(cancel("b"), delayed("b", 60_000));

        assertThat(state("a")).isEqualTo(MessageState.CANCELLED);
        assertThat(state("b")).isEqualTo(MessageState.CANCELLED);
        assertThat(messageFirst.controls()).isEqualTo(1);
        assertThat(cancelFirst.controls()).isEqualTo(1);
        assertThat(deadLettered).isEmpty();
    }

    @Test
    void aCancelThatArrivesFirstDropsTheMessageInALaterBatch() throws Exception {
        ingest(cancel("order-1"));
        assertThat(counter("bridge.cancels", "recorded", "message")).isEqualTo(1);

        IngestReport later = ingest(delayed("order-1", 0), delayed("order-2", 60_000));

        assertThat(later.scheduled()).isEqualTo(1);
        assertThat(later.cancelled()).isEqualTo(1);
        assertThat(state("order-1")).isEqualTo(MessageState.CANCELLED);
        assertThat(state("order-2")).isEqualTo(MessageState.PENDING);
        assertThat(meters.get("bridge.cancelled.arrivals").counter().count()).isEqualTo(1);
    }

    @Test
    void aCancelInALaterBatchWithdrawsThePendingMessage() throws Exception {
        ingest(delayed("order-1", 60_000));

        ingest(cancel("order-1"));

        assertThat(state("order-1")).isEqualTo(MessageState.CANCELLED);
        assertThat(counter("bridge.cancels", "withdrawn", "message")).isEqualTo(1);
    }

    @Test
    void controlsOfOneMessageApplyInArrivalOrder() throws Exception {
        ingest(delayed("x", 60_000), delayed("y", 60_000));

        ingest(reschedule("x", "x-delay", "120000"), cancel("x"), cancel("y"), reschedule("y", "x-delay", "0"));

        assertThat(state("x")).isEqualTo(MessageState.CANCELLED);
        assertThat(state("y")).isEqualTo(MessageState.CANCELLED);
        assertThat(counter("bridge.reschedules", "changed", "message")).isEqualTo(1);
        assertThat(counter("bridge.reschedules", "not-pending", "message")).isEqualTo(1);
    }

    @Test
    void rescheduleMovesTheDueTimeAndWakesTheDispatcherWhenEarlier() throws Exception {
        ingest(delayed("later", 1_000), delayed("earlier", 600_000));
        wakeups.clear();

        ingest(reschedule("later", "x-delay", "600000"), reschedule("earlier", "x-deliver-at", "1000"));

        assertThat(inspect("later").dueAt()).isGreaterThan(inspect("later").redisNow() + 590_000);
        assertThat(inspect("earlier").dueAt()).isEqualTo(1_000);
        assertThat(wakeups).contains(1_000L);
    }

    @Test
    void aMessageAndItsRescheduleInOneBatchGetTheNewDueTime() throws Exception {
        ingest(reschedule("r", "x-deliver-at", "5000"), delayed("r", 600_000));

        assertThat(inspect("r").dueAt()).isEqualTo(5_000);
    }

    @Test
    void aControlIsNeverStoredOrDelivered() throws Exception {
        IngestReport report = ingest(cancel("nothing"), reschedule("nothing", "x-delay", "5"));

        assertThat(report.scheduled()).isZero();
        assertThat(report.deadLettered()).isZero();
        assertThat(state("topic-0-0")).isEqualTo(MessageState.UNKNOWN);
        assertThat(state("topic-0-1")).isEqualTo(MessageState.UNKNOWN);
        assertThat(await(store.inspection().stats()).pending()).isZero();
    }

    @Test
    void tooLateCancelsAndReschedulesAreCountedNotDeadLettered() throws Exception {
        ingest(delayed("claimed", 0));
        int slot = store.keys().slotOf("claimed");
        assertThat(await(store.dispatch().claim(slot, 10, 60_000)).messages()).hasSize(1);

        IngestReport report = ingest(cancel("claimed"), reschedule("claimed", "x-delay", "5000"));

        assertThat(report.deadLettered()).isZero();
        assertThat(state("claimed")).isEqualTo(MessageState.IN_FLIGHT);
        assertThat(counter("bridge.cancels", "in-flight", "message")).isEqualTo(1);
        assertThat(counter("bridge.reschedules", "in-flight", "message")).isEqualTo(1);
    }

    @Test
    void badControlsAreDeadLetteredUnderTheirOwnIdAndTouchNothing() throws Exception {
        ingest(delayed("order-1", 60_000));

        IngestReport report = ingest(message(header("x-control", "pause"), header("x-message-id", "order-1")),
                message(header("x-control", "cancel")),
                reschedule("order-1", "x-deliver-at", Long.toString(System.currentTimeMillis() + 2 * MAX_DELAY_MS)));

        assertThat(report.deadLettered()).isEqualTo(3);
        assertThat(deadLettered).extracting(d -> d.reason()).containsExactly(
                DeadLetterReason.INVALID_CONTROL, DeadLetterReason.INVALID_CONTROL, DeadLetterReason.DELAY_TOO_LONG);
        assertThat(deadLettered).extracting(DeadLetter::messageId).containsExactly("topic-0-1", "topic-0-2", "topic-0-3");
        assertThat(state("order-1")).isEqualTo(MessageState.PENDING);
        assertThat(state("topic-0-1")).isEqualTo(MessageState.DEAD);
    }

    @Test
    void aReplaceSwapsThePendingPayloadWhereAPlainReuseOfTheIdIsADuplicateId() throws Exception {
        ingest(delayed("order-7", 600_000));
        IngestReport reuse = ingest(message(header("x-delay", "1000"), header("x-target", "kafka:other"), header("x-message-id", "order-7"),
                header("trace", "t")));
        assertThat(reuse.deadLettered()).as("without x-control the duplicate-id rule stays").isEqualTo(1);
        assertThat(deadLettered).extracting(DeadLetter::reason).containsExactly(DeadLetterReason.DUPLICATE_ID);
        wakeups.clear();

        IngestReport report = ingest(replace("order-7", "x-deliver-at", "1000", "kafka:other", "new body", header("trace", "t")));

        assertThat(report.deadLettered()).isZero();
        MessageFacts facts = inspect("order-7");
        assertThat(facts.dueAt()).isEqualTo(1_000);
        assertThat(EnvelopeCodec.decode("order-7", facts.envelope())).isEqualTo(new Envelope("order-7", "kafka:other", "kafka:topic/0@2",
                null, List.of(header("trace", "t")), Map.of(), "new body".getBytes(StandardCharsets.UTF_8)));
        assertThat(wakeups).contains(1_000L);
        assertThat(counter("bridge.replaces", "replaced", "message")).isEqualTo(1);
    }

    @Test
    void aMessageAndItsReplaceInOneBatchEndReplaced() throws Exception {
        IngestReport report = ingest(delayed("both", 600_000), replace("both", "x-deliver-at", "5000", "kafka:out", "replaced"));

        assertThat(report.deadLettered()).isZero();
        assertThat(inspect("both").dueAt()).isEqualTo(5_000);
        assertThat(EnvelopeCodec.decode("both", inspect("both").envelope()).body()).isEqualTo("replaced".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aReplaceThatFindsNoPendingMessageIsDeadLetteredAsNotReplacedAndChangesNothing() throws Exception {
        ingest(delayed("claimed", 0));
        int slot = store.keys().slotOf("claimed");
        assertThat(await(store.dispatch().claim(slot, 10, 60_000)).messages()).hasSize(1);

        IngestReport report = ingest(replace("claimed", "x-delay", "0", "kafka:out", "second payload"),
                replace("never-sent", "x-delay", "0", "kafka:out", "orphan payload"));

        assertThat(report.deadLettered()).isEqualTo(2);
        assertThat(deadLettered).extracting(DeadLetter::reason).containsExactly(DeadLetterReason.NOT_REPLACED, DeadLetterReason.NOT_REPLACED);
        assertThat(deadLettered).extracting(DeadLetter::messageId).as("filed under the controls' own ids").containsExactly("topic-0-1", "topic-0-2");
        assertThat(deadLettered.get(0).detail()).contains("'claimed'").contains("in flight");
        assertThat(deadLettered.get(1).detail()).contains("'never-sent'").contains("names no pending message");
        assertThat(deadLettered).extracting(d -> new String(d.body(), StandardCharsets.UTF_8)).containsExactly("second payload", "orphan payload");
        assertThat(state("claimed")).isEqualTo(MessageState.IN_FLIGHT);
        assertThat(EnvelopeCodec.decode("claimed", inspect("claimed").envelope()).body()).isEqualTo("body".getBytes(StandardCharsets.UTF_8));
        assertThat(state("never-sent")).isEqualTo(MessageState.UNKNOWN);
        assertThat(counter("bridge.replaces", "in-flight", "message")).isEqualTo(1);
        assertThat(counter("bridge.replaces", "not-found", "message")).isEqualTo(1);
    }

    // --- helpers ----------------------------------------------------------------------------------------------

    private IngestReport ingest(InboundMessage... messages) throws InterruptedException {
        return scheduler.schedule(validator.validate(new InboundBatch(List.of(messages), () -> { })));
    }

    private InboundMessage delayed(String id, long delayMs) {
        return message(header("x-delay", Long.toString(delayMs)), header("x-target", "kafka:out"), header("x-message-id", id));
    }

    private InboundMessage cancel(String id) {
        return message(header("x-control", "cancel"), header("x-message-id", id));
    }

    private InboundMessage reschedule(String id, String name, String value) {
        return message(header("x-control", "reschedule"), header("x-message-id", id), header(name, value));
    }

    private InboundMessage replace(String id, String dueName, String dueValue, String target, String body, MessageHeader... more) {
        List<MessageHeader> headers = new ArrayList<>(List.of(header("x-control", "replace"), header("x-message-id", id),
                header(dueName, dueValue), header("x-target", target)));
        headers.addAll(List.of(more));
        int at = offset++;
        return new InboundMessage("kafka:topic/0@" + at, "topic", "topic-0-" + at, null, headers, Map.of(),
                body.getBytes(StandardCharsets.UTF_8));
    }

    private InboundMessage message(MessageHeader... headers) {
        int at = offset++;
        return new InboundMessage("kafka:topic/0@" + at, "topic", "topic-0-" + at, null, List.of(headers), Map.of(),
                "body".getBytes(StandardCharsets.UTF_8));
    }

    private static MessageHeader header(String name, String value) {
        return MessageHeader.text(name, value);
    }

    private MessageState state(String id) throws Exception {
        return inspect(id).state();
    }

    private MessageFacts inspect(String id) throws Exception {
        return await(store.inspection().inspect(id));
    }

    private double counter(String name, String outcome, String via) {
        var counter = meters.find(name).tag("outcome", outcome).tag("via", via).counter();
        return counter == null ? 0 : counter.count();
    }
}
