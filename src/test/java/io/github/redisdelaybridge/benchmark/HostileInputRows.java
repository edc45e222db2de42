package io.github.redisdelaybridge.benchmark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hostile scenario's two rows: the valid messages' lateness beside the clean run's (the bridge decides every
 * hostile record without holding up its partition) and the hostile records' dead letters (each one dead-lettered, with
 * the reason of its kind).
 */
final class HostileInputRows {

    /** The hostile run's p99 lateness may be at most this many times the clean run's. */
    static final double MAX_P99_RATIO = 2.0;

    private HostileInputRows() {
    }

    static void add(ResultTable table, HostileInputScenario.Result r) {
        HostileInputScenario.Run clean = r.clean();
        HostileInputScenario.Run hostile = r.hostile();
        table.add("hostile input: valid lateness p99 vs clean (target <= 2x)",
                "p99 <= 2x the clean run's; every valid message delivered, none dead-lettered",
                String.format("%,d valid msg/s (1 s delay, %d s, %d partitions), 1 hostile record per %d valid on the same partitions: "
                                + "clean %s; with hostile records %s; valid delivered (distinct ids) %s clean, %s hostile; valid dead-lettered %d clean, "
                                + "%d hostile; %s (%s); %s (%s)", HostileInputScenario.RATE, r.durationMs() / 1000, HostileInputScenario.PARTITIONS,
                        HostileInputScenario.VALID_PER_HOSTILE, clean.latenessSummary(), hostile.latenessSummary(),
                        delivered(clean), delivered(hostile), clean.validDeadLettered(), hostile.validDeadLettered(), clean.waited(), clean.cpu(),
                        hostile.waited(), hostile.cpu()),
                latenessVerdict(clean, hostile));
        table.add("hostile input: hostile records dead-lettered with their reason (x-dead-letter-reason vs sent)",
                "every hostile record dead-lettered, with its kind's reason; none delivered",
                deadLetters(hostile), deadLetterVerdict(hostile));
    }

    private static String delivered(HostileInputScenario.Run run) {
        Delivery d = run.delivery();
        return String.format("%,d/%,d%s", d.distinct(), run.validSent(), d.duplicates() > 0 ? " (+" + d.duplicates() + " duplicates)" : "");
    }

    private static double ratio(HostileInputScenario.Run clean, HostileInputScenario.Run hostile) {
        return hostile.lateness().percentile(99) / (double) Math.max(1, clean.lateness().percentile(99));
    }

    private static String latenessVerdict(HostileInputScenario.Run clean, HostileInputScenario.Run hostile) {
        List<String> missed = new ArrayList<>();
        double ratio = ratio(clean, hostile);
        if (ratio > MAX_P99_RATIO) {
            missed.add(String.format("p99 %d vs %d ms", hostile.lateness().percentile(99), clean.lateness().percentile(99)));
        }
        for (HostileInputScenario.Run run : List.of(clean, hostile)) {
            String which = run == clean ? "clean" : "hostile";
            if (!run.delivery().complete()) {
                missed.add(String.format("%s run: %,d valid not delivered", which, run.delivery().missing()));
            }
            if (run.validDeadLettered() > 0) {
                missed.add(String.format("%s run: %,d valid dead-lettered", which, run.validDeadLettered()));
            }
        }
        String detail = String.format("%.2fx clean p99", ratio) + (missed.isEmpty() ? "" : "; " + String.join("; ", missed));
        return ResultTable.verdict(missed.isEmpty(), detail);
    }

    /**
     * "invalid-delay 1,560/1,560, invalid-target 630/630, ...; short: 'kind' 0/30 (as delay-too-long 30); 4 delivered to their
     * target; 0 refused by the broker": per reason, the hostile records dead-lettered with it of those sent whose kind
     * calls for it; then every kind that fell short, with the reasons it got instead.
     */
    private static String deadLetters(HostileInputScenario.Run run) {
        Map<String, long[]> byReason = new LinkedHashMap<>();
        List<String> shortKinds = new ArrayList<>();
        for (HostileRecords.Kind kind : run.kinds()) {
            long sent = run.sentByKind().getOrDefault(kind.name(), 0L);
            long right = run.deadLetters().count(kind.name(), kind.reason());
            long[] counts = byReason.computeIfAbsent(kind.reason(), k -> new long[2]);
            counts[0] += right;
            counts[1] += sent;
            if (right < sent) {
                Map<String, Long> other = new LinkedHashMap<>(run.deadLetters().reasons(kind.name()));
                other.remove(kind.reason());
                shortKinds.add(String.format("'%s' %,d/%,d%s", kind.name(), right, sent, other.isEmpty() ? "" : " (as " + other + ")"));
            }
        }
        StringBuilder out = new StringBuilder();
        byReason.forEach((reason, c) -> out.append(out.length() == 0 ? "" : ", ").append(String.format("%s %,d/%,d", reason, c[0], c[1])));
        out.append(String.format(" (%,d hostile records of %d kinds)", run.hostileSent(), run.kinds().size()));
        if (!shortKinds.isEmpty()) {
            out.append("; short: ").append(String.join(", ", shortKinds));
        }
        out.append(String.format("; %,d delivered to their target; %,d refused by the broker", run.acceptedHostile(), run.refusedByBroker()));
        return out.toString();
    }

    private static String deadLetterVerdict(HostileInputScenario.Run run) {
        long right = run.kinds().stream().mapToLong(k -> run.deadLetters().count(k.name(), k.reason())).sum();
        boolean met = right == run.hostileSent() && run.hostileSent() > 0 && run.acceptedHostile() == 0 && run.refusedByBroker() == 0;
        return ResultTable.verdict(met, String.format("%,d of %,d with their reason", right, run.hostileSent()));
    }
}
