package io.github.redisdelaybridge.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Scale-out: the ingest and drain scenarios with 1, 2 and 3 bridge instances sharing one store (the
 * benchmark's one Redis, or a Redis Cluster), N messages each time; every run is checked for
 * exactly-once (all stored and committed; on the target each id once), and a run that lost messages
 * shows how many instead of a rate.
 */
final class ScaleOutScenario {

    static final int MAX_INSTANCES = 3;

    /** One instance count: its ingest and drain, and how their key prefixes' slots spread over the masters. */
    record Run(int instances, IngestScenario.Result ingest, String ingestSpread, DrainScenario.Result drain, String drainSpread) {
    }

    record Result(int count, int slots, List<Run> runs) {

        /** "1: 59,014; 2: 62,364; 3: 53,807 msg/s (200,000 msgs[; 12 slots over the masters: 1: 4/5/3, ...]; cpu 1: ...; 2: ...; 3: ...)". */
        String ingestRates() {
            return rates(r -> r.ingest().rateOrShortfall(), r -> r.ingest().cpu(), Run::ingestSpread);
        }

        String drainRates() {
            return rates(r -> r.drain().rateOrShortfall(), r -> r.drain().cpu(), Run::drainSpread);
        }

        /** MET when every run stored and committed every message, else MISSED with the instance counts that fell short. */
        String ingestVerdict() {
            return verdict(run -> run.ingest().complete());
        }

        /** MET when every run delivered each message exactly once, else MISSED with the instance counts that did not. */
        String drainVerdict() {
            return verdict(run -> run.drain().delivery().exactlyOnce());
        }

        private String verdict(Predicate<Run> exactlyOnce) {
            List<String> fellShort = runs.stream().filter(exactlyOnce.negate()).map(r -> Integer.toString(r.instances())).toList();
            return ResultTable.verdict(fellShort.isEmpty(), fellShort.isEmpty() ? "exactly once in every run"
                    : "not exactly once with " + String.join(", ", fellShort) + " instance(s)");
        }

        private String rates(Function<Run, String> rate, Function<Run, String> cpu, Function<Run, String> spread) {
            List<String> rates = new ArrayList<>();
            List<String> cpus = new ArrayList<>();
            List<String> spreads = new ArrayList<>();
            for (Run run : runs) {
                rates.add(run.instances() + ": " + rate.apply(run));
                cpus.add(run.instances() + ": " + cpu.apply(run).replaceFirst("^cpu: ", ""));
                spreads.add(run.instances() + ": " + spread.apply(run));
            }
            String slotSpread = spread.apply(runs.get(0)).isEmpty() ? ""
                    : String.format("; %d slots over the masters: %s", slots, String.join(", ", spreads));
            return String.format("%s msg/s (%,d msgs%s; cpu %s)", String.join("; ", rates), count, slotSpread, String.join("; ", cpus));
        }
    }

    private ScaleOutScenario() {
    }

    /** Runs named {@code <name>-ingest-<instances>} and {@code <name>-drain-<instances>}. */
    static Result measure(BenchEnvironment env, BridgeRedis redis, String name, int count) throws Exception {
        List<Run> runs = new ArrayList<>();
        for (int instances = 1; instances <= MAX_INSTANCES; instances++) {
            String ingestName = name + "-ingest-" + instances;
            String drainName = name + "-drain-" + instances;
            IngestScenario.Result ingest = IngestScenario.measure(env, redis, ingestName, count, instances);
            DrainScenario.Result drain = DrainScenario.measure(env, redis, drainName, count, instances);
            runs.add(new Run(instances, ingest, redis.spread(redis.keys(env.prefix(ingestName))),
                    drain, redis.spread(redis.keys(env.prefix(drainName)))));
        }
        return new Result(count, redis.slots(), runs);
    }
}
