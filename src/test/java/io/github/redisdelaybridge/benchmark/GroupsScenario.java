package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.FreePorts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Groups (x-group): Redis memory per pending message with a group against the same messages without one, (used_memory
 * after loading - before) / N through the bridge's store (default Kafka ids, 100-byte bodies, one slot, 12-character group
 * names: {@code order-000042}); with 10 messages per group, with a group of its own per message (the index key is not shared),
 * and all in one group (a big index). Then the time a running bridge takes to answer {@code DELETE /api/groups/{group}} for
 * a group of 10,000 pending messages (and its dry run), over HTTP on loopback.
 */
final class GroupsScenario {

    static final int CANCELLED_GROUP = 10_000;
    private static final IntFunction<String> KAFKA_IDS = i -> "delay.inbound-0-" + i;

    record Result(int count, double ungrouped, double tenPerGroup, double onePerGroup, double oneGroup, long dryRunMs, long cancelMs,
                  long cancelled) {
    }

    private GroupsScenario() {
    }

    static Result measure(BenchEnvironment env, int count) throws Exception {
        String prefix = env.prefix("groups-memory");
        double ungrouped;
        double tenPerGroup;
        double onePerGroup;
        double oneGroup;
        try (BenchEnvironment.StoreHandle store = env.store(prefix, 1)) {
            ungrouped = bytesPerMessage(env, store, prefix, count, null);
            tenPerGroup = bytesPerMessage(env, store, prefix, count, i -> String.format("order-%06d", i / 10));
            onePerGroup = bytesPerMessage(env, store, prefix, count, i -> String.format("order-%06d", i));
            oneGroup = bytesPerMessage(env, store, prefix, count, i -> "order-000000");
        } finally {
            env.deleteKeys(prefix);
        }
        System.out.printf("groups: %,d messages: %.0f bytes/message without a group; with one: %.0f (10 per group), %.0f (1 per group),"
                + " %.0f (all in one group)%n", count, ungrouped, tenPerGroup, onePerGroup, oneGroup);

        String name = "groups-cancel";
        String inbound = env.topic(name, "inbound");
        env.createTopics(1, inbound, env.topic(name, "dlq"));
        Map<String, String> settings = new LinkedHashMap<>(env.bridgeSettings(name, inbound));
        String port = Integer.toString(FreePorts.next());
        settings.put("camel.server.port", port);
        settings.put("camel.management.port", port);
        BridgeInstance bridge = BridgeInstance.start(settings);
        try (BenchEnvironment.StoreHandle store = env.store(env.prefix(name), 1)) {
            StoreLoader.loadGrouped(store.store(), KAFKA_IDS, i -> "big-group", 0, CANCELLED_GROUP, farFuture(), env.topic(name, "target"),
                    env.payload());
            AdminApiClient api = new AdminApiClient("http://127.0.0.1:" + port, null);
            // untimed: the first request pays for the HTTP server's and the route's first use, and the script's first load
            check(api.delete("/api/groups/no-such-group?dry-run=true"), 0, "cancelled");
            long start = System.nanoTime();
            AdminApiClient.Response dryRun = api.delete("/api/groups/big-group?dry-run=true");
            long dryRunMs = (System.nanoTime() - start) / 1_000_000;
            check(dryRun, CANCELLED_GROUP, "cancelled");
            start = System.nanoTime();
            AdminApiClient.Response cancel = api.delete("/api/groups/big-group");
            long cancelMs = (System.nanoTime() - start) / 1_000_000;
            check(cancel, CANCELLED_GROUP, "cancelled");
            System.out.printf("groups: DELETE /api/groups/{group} of %,d pending: %d ms (dry run %d ms)%n", CANCELLED_GROUP, cancelMs, dryRunMs);
            return new Result(count, ungrouped, tenPerGroup, onePerGroup, oneGroup, dryRunMs, cancelMs, cancel.json().get("cancelled").asLong());
        } finally {
            BenchEnvironment.stopBridges(List.of(bridge));
            env.deleteKeys(env.prefix(name));
        }
    }

    private static void check(AdminApiClient.Response response, long expected, String field) {
        if (response.status() != 200 || response.json().get(field).asLong() != expected) {
            throw new IllegalStateException("DELETE /api/groups answered " + response.status() + " " + response.text());
        }
    }

    /** Bytes per message of {@code count} messages with groups {@code groupOf(i)} (null: none), the keys deleted after. */
    private static double bytesPerMessage(BenchEnvironment env, BenchEnvironment.StoreHandle store, String prefix, int count,
                                          IntFunction<String> groupOf) throws Exception {
        long before = env.usedMemory();
        if (groupOf == null) {
            StoreLoader.load(store.store(), KAFKA_IDS, 0, count, farFuture(), "bench.groups", env.payload());
        } else {
            StoreLoader.loadGrouped(store.store(), KAFKA_IDS, groupOf, 0, count, farFuture(), "bench.groups", env.payload());
        }
        double perMessage = (env.usedMemory() - before) / (double) count;
        env.deleteKeys(prefix);
        BenchEnvironment.awaitMillis(() -> env.usedMemory() < before + 1_000_000, 10_000, 50);
        return perMessage;
    }

    private static DueTime farFuture() {
        return new DueTime.At(System.currentTimeMillis() + StoreLoader.FAR_FUTURE_MS);
    }
}
