package io.github.redisdelaybridge.store.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.store.connection.DurabilitySettings.LocalFsync;
import io.github.redisdelaybridge.store.connection.RedisRequirements.Finding;
import io.github.redisdelaybridge.store.connection.RedisRequirements.Severity;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the bridge says about a Redis master's set-up, for each promise it was configured to keep. */
class RedisRequirementsTest {

    private static RedisServerFacts redis(String version, String policy, boolean aof, String appendfsync, int replicas) {
        return new RedisServerFacts("r:6379", version, policy, aof, appendfsync, replicas);
    }

    private static List<Finding> check(RedisServerFacts facts, int waitReplicas, LocalFsync fsync, boolean allowEviction) {
        return RedisRequirements.check(List.of(facts), new DurabilitySettings(waitReplicas, fsync, 1_000), allowEviction);
    }

    @Test
    void aWellSetUpMasterGivesNoFinding() {
        assertThat(check(redis("7.0.15", "noeviction", true, "always", 1), 1, LocalFsync.TRUE, false)).isEmpty();
        assertThat(check(redis("7.2.4", "noeviction", true, "everysec", 0), 0, LocalFsync.TRUE, false)).as("WAITAOF covers everysec").isEmpty();
        assertThat(check(redis("6.2.0", "noeviction", false, null, 0), 0, LocalFsync.FALSE, false)).isEmpty();
    }

    @Test
    void redisOlderThanSixTwoIsFatal() {
        assertThat(check(redis("6.0.16", "noeviction", false, "no", 0), 0, LocalFsync.FALSE, false))
                .singleElement().satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.FATAL);
                    assertThat(f.text()).contains("6.0.16").contains("6.2 or later");
                });
    }

    @Test
    void evictionIsFatalUnlessAllowedThenAWarning() {
        assertThat(check(redis("7.0.15", "allkeys-lru", false, null, 0), 0, LocalFsync.FALSE, false))
                .singleElement().satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.FATAL);
                    assertThat(f.text()).contains("maxmemory-policy allkeys-lru").contains("bridge.redis.allow-eviction=true");
                });
        assertThat(check(redis("7.0.15", "volatile-ttl", false, null, 0), 0, LocalFsync.FALSE, true))
                .singleElement().extracting(Finding::severity).isEqualTo(Severity.WARN);
    }

    @Test
    void promisedFsyncNeedsAnAppendOnlyFileAndBeforeSevenTwoAppendfsyncAlways() {
        assertThat(check(redis("7.0.15", "noeviction", false, "everysec", 0), 0, LocalFsync.TRUE, false))
                .singleElement().satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.FATAL);
                    assertThat(f.text()).contains("appendonly no").contains("set appendonly yes");
                });
        assertThat(check(redis("7.0.15", "noeviction", true, "everysec", 0), 0, LocalFsync.TRUE, false))
                .singleElement().satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.FATAL);
                    assertThat(f.text()).contains("appendfsync everysec").contains("set appendfsync always");
                });
    }

    @Test
    void autoWarnsWhereItCannotKeepTheFsyncAndSaysOnceWhenNothingIsPersisted() {
        assertThat(check(redis("7.0.15", "noeviction", true, "everysec", 0), 0, LocalFsync.AUTO, false))
                .singleElement().extracting(Finding::severity).isEqualTo(Severity.WARN);
        assertThat(check(redis("7.0.15", "noeviction", false, "everysec", 0), 0, LocalFsync.AUTO, false))
                .singleElement().satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.NOTE);
                    assertThat(f.text()).contains("appendonly no").contains("restart of it loses them");
                });
    }

    @Test
    void appendfsyncThatCannotBeReadIsSaidOnceNotFatal() {
        assertThat(check(redis("7.0.15", "noeviction", true, null, 0), 0, LocalFsync.TRUE, false))
                .singleElement().satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.NOTE);
                    assertThat(f.text()).contains("cannot verify appendfsync");
                });
    }

    @Test
    void fewerConnectedReplicasThanAwaitedIsAWarning() {
        assertThat(check(redis("7.0.15", "noeviction", false, null, 1), 2, LocalFsync.FALSE, false))
                .singleElement().satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.WARN);
                    assertThat(f.text()).contains("1 connected replica(s)").contains("wait-replicas is 2");
                });
    }

    @Test
    void factsAreReadFromInfo() {
        String info = "# Server\r\nredis_version:7.2.4\r\ntcp_port:6379\r\n# Memory\r\nmaxmemory_policy:noeviction\r\n"
                + "# Persistence\r\naof_enabled:1\r\n# Replication\r\nrole:master\r\nconnected_slaves:2\r\n";
        RedisServerFacts facts = RedisServerFacts.fromInfo("r:6379", info, "everysec");
        assertThat(facts).isEqualTo(new RedisServerFacts("r:6379", "7.2.4", "noeviction", true, "everysec", 2));
        assertThat(facts.supportsWaitAof()).isTrue();
        assertThat(redis("7.0.15", "noeviction", true, null, 0).supportsWaitAof()).isFalse();
        assertThat(redis("6.2.11", "noeviction", true, null, 0).atLeast(6, 2)).isTrue();
    }

    @Test
    void theBarrierSendsWaitaofOnlyWhereEveryMasterSupportsItAndTheFsyncIsPromised() {
        DurabilityBarrier auto = new DurabilityBarrier(null, null, new DurabilitySettings(1, LocalFsync.AUTO, 500));
        assertThat(auto.describePlan()).as("unknown until the servers were checked").isNull();
        auto.serversChecked(List.of(redis("7.2.4", "noeviction", true, "everysec", 1)));
        assertThat(auto.describePlan()).isEqualTo("WAITAOF 1 0 500 and WAIT 1 500");
        auto.serversChecked(List.of(redis("7.2.4", "noeviction", false, "everysec", 1)));
        assertThat(auto.describePlan()).as("auto without an append-only file").isEqualTo("WAIT 1 500");
        auto.serversChecked(List.of(redis("7.2.4", "noeviction", true, "always", 1), redis("7.0.15", "noeviction", true, "always", 1)));
        assertThat(auto.describePlan()).as("one master before 7.2").isEqualTo("WAIT 1 500");
        assertThat(DurabilityBarrier.none().describePlan()).startsWith("nothing");
    }

    @Test
    void aConnectionIsToldApartByItsIdAndBothAddresses() {
        assertThat(DurabilityBarrier.connectionIdentity("id=7 addr=127.0.0.1:51234 laddr=127.0.0.1:6379 fd=8 name= age=3 idle=0\n"))
                .isEqualTo("id=7 addr=127.0.0.1:51234 laddr=127.0.0.1:6379");
    }
}
