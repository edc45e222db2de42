package io.github.redisdelaybridge.store.script;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.NameLimits;
import io.github.redisdelaybridge.store.parking.ChangeTargetStateScript;
import io.github.redisdelaybridge.store.parking.CountParkedScript;
import io.github.redisdelaybridge.store.parking.ReadTargetStatesScript;
import io.github.redisdelaybridge.store.parking.ReturnParkedScript;
import io.github.redisdelaybridge.store.parking.SetTargetParkedScript;
import io.github.redisdelaybridge.store.parking.TakeParkedOutScript;
import io.github.redisdelaybridge.store.parking.TakeParkingTurnScript;
import io.github.redisdelaybridge.store.parking.TargetState;
import io.github.redisdelaybridge.store.dispatch.AcknowledgeScript;
import io.github.redisdelaybridge.store.dispatch.ClaimScript;
import io.github.redisdelaybridge.store.dispatch.ClaimTag;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.dispatch.DeadLetterScript;
import io.github.redisdelaybridge.store.dispatch.ReapExpiredLeasesScript;
import io.github.redisdelaybridge.store.dispatch.TakeBackLeasesScript;
import io.github.redisdelaybridge.store.dispatch.RecordFailureScript;
import io.github.redisdelaybridge.store.dispatch.ReleaseClaimScript;
import io.github.redisdelaybridge.store.dispatch.RescheduleScript;
import io.github.redisdelaybridge.store.dispatch.DeferClaimedScript;
import io.github.redisdelaybridge.store.dispatch.TakeTokensScript;
import io.github.redisdelaybridge.store.dispatch.ResolveNamesScript;
import io.github.redisdelaybridge.store.ingest.CancelGroupScript;
import io.github.redisdelaybridge.store.ingest.CancelScript;
import io.github.redisdelaybridge.store.ingest.RescheduleGroupScript;
import io.github.redisdelaybridge.store.ingest.ChangeDueTimeScript;
import io.github.redisdelaybridge.store.ingest.ReplaceScript;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.ingest.ScheduleScript;
import io.github.redisdelaybridge.store.ingest.StoreDeadLettersScript;
import io.github.redisdelaybridge.store.inspection.CountPendingScript;
import io.github.redisdelaybridge.store.inspection.DeleteDeadLetterScript;
import io.github.redisdelaybridge.store.inspection.DueHistogramScript;
import io.github.redisdelaybridge.store.inspection.GaugesScript;
import io.github.redisdelaybridge.store.inspection.InspectScript;
import io.github.redisdelaybridge.store.inspection.ListDeadLettersScript;
import io.github.redisdelaybridge.store.inspection.ListGroupScript;
import io.github.redisdelaybridge.store.inspection.ListPendingScript;
import io.github.redisdelaybridge.store.inspection.ListPosition;
import io.github.redisdelaybridge.store.inspection.PendingFilter;
import io.github.redisdelaybridge.store.inspection.ReplayDeadLetterScript;
import io.github.redisdelaybridge.store.inspection.StatsScript;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Every Lua script's header is its contract, and its Java class states it once: this holds each class to its header.
 * Every script has a class, the class passes the keys the header names in the header's order, as many ARGV as the
 * header lists, and reads the reply by the names of the header's Returns line. A script whose header and class drift
 * apart fails here, by name, before any Redis sees a wrong key.
 */
class ScriptContractsTest {

    private static final Path SCRIPTS = Path.of("src/main/resources/lua");
    private static final Keys KEYS = new Keys("contract", 4);
    private static final ClaimedMessage CLAIMED = new ClaimedMessage(1, "m-1", new byte[] {'m'}, true, 5, 0, new byte[] {1}, 9, 5);
    private static final ScheduleRequest REQUEST =
            new ScheduleRequest("m-1", new DueTime.AfterDelay(1), new Envelope("m-1", "kafka:out", "kafka:in/0@1", null, List.of(), Map.of(), new byte[] {1}));
    private static final ListPosition AFTER = new ListPosition(5, new byte[] {'m'}, 0);

    /** A call of every script, with two entries where ARGV repeats (per message, per record). */
    private static final Map<String, ScriptCall<?>> SAMPLE_CALLS = new TreeMap<>(Map.ofEntries(
            Map.entry("schedule", ScheduleScript.call(KEYS, 1, 10, 20, 30, NameLimits.DEFAULT, List.of(REQUEST, REQUEST))),
            Map.entry("claim", ClaimScript.call(KEYS, 1, 100, 60_000, new ClaimTag("claimer", 7), 25)),
            Map.entry("resolveNames", ResolveNamesScript.call(KEYS, 1, List.of(3L, 4L))),
            Map.entry("releaseClaim", ReleaseClaimScript.call(KEYS, 1, new ClaimTag("claimer", 7))),
            Map.entry("recordFailure", RecordFailureScript.call(KEYS, CLAIMED)),
            Map.entry("acknowledge", AcknowledgeScript.call(KEYS, 1, 20, List.of(CLAIMED, CLAIMED))),
            Map.entry("reschedule", RescheduleScript.call(KEYS, CLAIMED, 1_000, true)),
            Map.entry("deferClaimed", DeferClaimedScript.call(KEYS, 1, List.of(new DeferClaimedScript.Deferral(CLAIMED, 10),
                    new DeferClaimedScript.Deferral(CLAIMED, 20)))),
            Map.entry("takeTokens", TakeTokensScript.call(KEYS, "orders", 100, 5)),
            Map.entry("returnParked", ReturnParkedScript.call(KEYS, 1, "kafka:out", 10)),
            Map.entry("takeParkedOut", TakeParkedOutScript.call(KEYS, 1, "kafka:out", 1, null)),
            Map.entry("setTargetParked", SetTargetParkedScript.call(KEYS, 1, "kafka:out", true)),
            Map.entry("countParked", CountParkedScript.call(KEYS, 1, List.of("kafka:out", "kafka:other"))),
            Map.entry("changeTargetState", ChangeTargetStateScript.call(KEYS, "kafka:out", null, java.util.EnumSet.of(TargetState.Kind.PAUSED), true)),
            Map.entry("readTargetStates", ReadTargetStatesScript.call(KEYS)),
            Map.entry("takeParkingTurn", TakeParkingTurnScript.call(KEYS, "bridge-0/7", 1_000)),
            Map.entry("reapExpiredLeases", ReapExpiredLeasesScript.call(KEYS, 1, 100)),
            Map.entry("takeBackLeases", TakeBackLeasesScript.call(KEYS, 1, "bridge-0", "bridge-0/7", 1_000)),
            Map.entry("deadLetter", DeadLetterScript.call(KEYS, CLAIMED, new byte[] {1}, 10, 20, 30)),
            Map.entry("storeDeadLetters", StoreDeadLettersScript.call(KEYS, 1, 10, 20, 30, List.of(Map.entry("a", new byte[] {1}), Map.entry("b", new byte[] {2})))),
            Map.entry("cancel", CancelScript.call(KEYS, "m-1", 10, 20, true, NameLimits.DEFAULT)),
            Map.entry("cancelGroup", CancelGroupScript.call(KEYS, 1, "g", 10, 100, 0, false)),
            Map.entry("rescheduleGroup", RescheduleGroupScript.call(KEYS, 1, "g", new DueTime.At(5), 10, 100, 0, 0, true)),
            Map.entry("changeDueTime", ChangeDueTimeScript.call(KEYS, "m-1", new DueTime.At(5), 10)),
            Map.entry("replace", ReplaceScript.call(KEYS, REQUEST, 10, 20, 30, NameLimits.DEFAULT)),
            Map.entry("inspect", InspectScript.call(KEYS, "m-1", 10, 20)),
            Map.entry("dueHistogram", DueHistogramScript.call(KEYS, 1, 60_000, 60)),
            Map.entry("listPending", ListPendingScript.call(KEYS, 1, AFTER, 10L, 5, "kafka:out", 100)),
            Map.entry("countPending", CountPendingScript.call(KEYS, 1, new PendingFilter(5L, 10L, "kafka:*"), 100)),
            Map.entry("listGroup", ListGroupScript.call(KEYS, 1, "g", AFTER, 5, 100)),
            Map.entry("listDeadLetters", ListDeadLettersScript.call(KEYS, 1, AFTER, 5, "expired", 100)),
            Map.entry("replayDeadLetter", ReplayDeadLetterScript.call(KEYS, new byte[] {1}, REQUEST, 10, NameLimits.DEFAULT)),
            Map.entry("deleteDeadLetter", DeleteDeadLetterScript.call(KEYS, "m-1")),
            Map.entry("stats", StatsScript.call(KEYS, 1, 10, 20)),
            Map.entry("gauges", GaugesScript.call(KEYS, 1, 10))));

    private static final int SAMPLE_GROUPS = 2;

    @Test
    void everyScriptHasAContractAndEveryContractAScript() throws IOException {
        assertThat(SAMPLE_CALLS.keySet()).containsExactlyInAnyOrderElementsOf(scriptNames());
        SAMPLE_CALLS.forEach((name, call) -> assertThat(call.contract().script().name()).as(name).isEqualTo(name));
    }

    @Test
    void everyHeaderStatesKeysArgvAndReturns() throws IOException {
        for (String name : scriptNames()) {
            Header header = Header.of(name);
            assertThat(header.keys()).as(name + ": KEYS[n] lines").isNotEmpty();
            if (!LuaScript.load(name).source().contains("\n  ARGV none\n")) {
                assertThat(header.fixedArgv() + header.argvGroup().size()).as(name + ": ARGV[n] lines, or 'ARGV none'").isPositive();
            }
            assertThat(header.returns()).as(name + ": Returns line").isNotBlank();
        }
    }

    @Test
    void keysAreTheOnesTheHeaderNamesInItsOrder() {
        SoftAssertions.assertSoftly(softly -> SAMPLE_CALLS.forEach((name, call) -> {
            Header header = Header.of(name);
            softly.assertThat(call.contract().keyNames()).as(name + ": KEYS").isEqualTo(header.keys());
            softly.assertThat(call.keys().length).as(name + ": keys passed").isEqualTo(header.keys().size());
            softly.assertThat(header.highestIndexUsed("KEYS")).as(name + ": KEYS the body uses").isLessThanOrEqualTo(header.keys().size());
        }));
    }

    @Test
    void argvCountIsTheHeaders() {
        SoftAssertions.assertSoftly(softly -> SAMPLE_CALLS.forEach((name, call) -> {
            Header header = Header.of(name);
            int groups = header.argvGroup().isEmpty() ? 0 : SAMPLE_GROUPS;
            softly.assertThat(call.args().length).as(name + ": ARGV " + header.fixedArgv() + " + " + groups + " x " + header.argvGroup())
                    .isEqualTo(header.fixedArgv() + groups * header.argvGroup().size());
            softly.assertThat(Arrays.asList(call.args())).as(name + ": every ARGV given").doesNotContainNull();
            softly.assertThat(header.highestIndexUsed("ARGV")).as(name + ": ARGV the body uses").isLessThanOrEqualTo(header.fixedArgv());
        }));
    }

    @Test
    void theReplyIsReadByTheNamesOfTheHeadersReturnsLine() {
        SoftAssertions.assertSoftly(softly -> SAMPLE_CALLS.forEach((name, call) -> {
            Header header = Header.of(name);
            Reply.Shape<?, ?> shape = call.contract().shape();
            if (!header.returns().startsWith("{")) {
                softly.assertThat(shape).as(name + " returns an integer: " + header.returns()).isNull();
                return;
            }
            softly.assertThat(shape).as(name + " returns an array: " + header.returns()).isNotNull();
            if (shape == null) {
                return;
            }
            ReturnsLine returns = ReturnsLine.parse(header.returns());
            softly.assertThat(names(shape.headFields())).as(name + ": head").isEqualTo(returns.head());
            softly.assertThat(names(shape.entryFields())).as(name + ": entry").isEqualTo(returns.entry());
            softly.assertThat(names(shape.tailFields())).as(name + ": tail").isEqualTo(returns.tail());
        }));
    }

    @Test
    void theReturnsLineParsesIntoHeadEntryAndTail() {
        ReturnsLine claim = ReturnsLine.parse("{ now, nextDue, leaseDeadline, id1, member1, id2, ... }");
        assertThat(claim.head()).containsExactly("now", "nextDue", "leaseDeadline");
        assertThat(claim.entry()).containsExactly("id", "member");
        assertThat(claim.tail()).isEmpty();

        ReturnsLine schedule = ReturnsLine.parse("{ result1, result2, ..., now }");
        assertThat(schedule.head()).isEmpty();
        assertThat(schedule.entry()).containsExactly("result");
        assertThat(schedule.tail()).containsExactly("now");
    }

    private static List<String> scriptNames() throws IOException {
        try (Stream<Path> files = Files.list(SCRIPTS)) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".lua")).map(f -> f.substring(0, f.length() - 4)).sorted().toList();
        }
    }

    /** LEASE_DEADLINE -> leaseDeadline, as the header writes it. */
    private static List<String> names(List<? extends Enum<?>> fields) {
        List<String> names = new ArrayList<>();
        for (Enum<?> field : fields) {
            StringBuilder name = new StringBuilder();
            for (String part : field.name().toLowerCase().split("_")) {
                name.append(name.isEmpty() ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
            }
            names.add(name.toString());
        }
        return names;
    }

    /**
     * What a script's opening comment states: {@code KEYS[n] <name>  <type> ...} lines, {@code ARGV[n] ...} lines and
     * at most one {@code ARGV[n..] <what>: a (...), b, c} line for the values that repeat, and {@code Returns: ...}.
     */
    record Header(List<String> keys, int fixedArgv, List<String> argvGroup, String returns, String body) {

        private static final Pattern KEY = Pattern.compile("(?m)^\\s*KEYS\\[(\\d+)] (.+?)\\s{2,}");
        private static final Pattern ARGV = Pattern.compile("(?m)^\\s*ARGV\\[(\\d+)]");
        private static final Pattern ARGV_GROUP = Pattern.compile("(?m)^\\s*ARGV\\[(\\d+)\\.\\.] ([^\\n]*(?:\\n[ ]{4,}[^\\n]*)*)");
        private static final Pattern RETURNS = Pattern.compile("(?m)^\\s*Returns:\\s*(\\S.*)$"); // its first line of text

        static Header of(String name) {
            String source;
            try {
                source = Files.readString(SCRIPTS.resolve(name + ".lua"), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            assertThat(source).as(name).startsWith("--[[\n  " + name + ":");
            int end = source.indexOf("]]");
            String header = source.substring(0, end);

            List<String> keys = new ArrayList<>();
            Matcher key = KEY.matcher(header);
            while (key.find()) {
                assertThat(Integer.parseInt(key.group(1))).as(name + ": KEYS numbered in order").isEqualTo(keys.size() + 1);
                keys.add(key.group(2));
            }
            int fixed = 0;
            Matcher argv = ARGV.matcher(header);
            while (argv.find()) {
                assertThat(Integer.parseInt(argv.group(1))).as(name + ": ARGV numbered in order").isEqualTo(fixed + 1);
                fixed++;
            }
            List<String> group = List.of();
            Matcher repeated = ARGV_GROUP.matcher(header);
            if (repeated.find()) {
                assertThat(Integer.parseInt(repeated.group(1))).as(name + ": repeated ARGV follow the others").isEqualTo(fixed + 1);
                String what = repeated.group(2).replaceAll("\\s+", " ");
                String listed = what.substring(what.indexOf(':') + 1).replaceAll("\\([^()]*\\)", "");
                group = Stream.of(listed.split(",")).map(String::strip).toList();
            }
            Matcher returns = RETURNS.matcher(header);
            return new Header(keys, fixed, group, returns.find() ? returns.group(1).strip() : "", source.substring(end));
        }

        /** The highest literal index of {@code KEYS[n]} or {@code ARGV[n]} in the script's code (0 if none). */
        int highestIndexUsed(String table) {
            Matcher used = Pattern.compile(table + "\\[(\\d+)]").matcher(body);
            int highest = 0;
            while (used.find()) {
                highest = Math.max(highest, Integer.parseInt(used.group(1)));
            }
            return highest;
        }
    }

    /**
     * {@code { a, b, x1, y1, x2, ..., t }}: head fields, the fields of the first entry (numbered 1; the second entry only
     * shows the repetition), then after {@code ...} a tail.
     */
    record ReturnsLine(List<String> head, List<String> entry, List<String> tail) {

        static ReturnsLine parse(String line) {
            List<String> head = new ArrayList<>();
            List<String> entry = new ArrayList<>();
            List<String> tail = new ArrayList<>();
            boolean afterEllipsis = false;
            for (String token : line.substring(line.indexOf('{') + 1, line.indexOf('}')).split(",")) {
                String name = token.strip();
                if (name.equals("...")) {
                    afterEllipsis = true;
                } else if (afterEllipsis) {
                    tail.add(name);
                } else if (name.endsWith("1")) {
                    entry.add(name.substring(0, name.length() - 1));
                } else if (!name.endsWith("2")) {
                    head.add(name);
                }
            }
            return new ReturnsLine(head, entry, tail);
        }
    }
}
