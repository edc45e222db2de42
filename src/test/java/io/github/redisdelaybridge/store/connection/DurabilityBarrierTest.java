package io.github.redisdelaybridge.store.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.connection.DurabilitySettings.LocalFsync;
import io.github.redisdelaybridge.testkit.RedisServerProcess;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The durability barrier against a master and a replica of the test's own: WAIT confirms writes the replica has,
 * refuses while the replica is frozen (SIGSTOP), and a fence whose connection was re-established answers false.
 */
class DurabilityBarrierTest {

    private static RedisServerProcess master;
    private static RedisServerProcess replica;
    private static RedisConnection redis;

    @BeforeAll
    static void startMasterAndReplica() throws Exception {
        // assigned before start, so that @AfterAll stops them even when a start fails
        master = new RedisServerProcess("barrier-master", false);
        replica = new RedisServerProcess("barrier-replica", false).replicaOf(master);
        master.start();
        replica.start();
        redis = new RedisConnection(master.uri(), Duration.ofSeconds(5));
        // the replica must be in sync before the first WAIT (a loaded machine may take seconds)
        for (int i = 0; i < 600 && !(redis.async().info("replication").get().contains("connected_slaves:1")
                && redis.async().info("replication").get().contains("state=online")); i++) {
            Thread.sleep(50);
        }
        assertThat(redis.async().info("replication").get()).contains("connected_slaves:1").contains("state=online");
    }

    @AfterAll
    static void stop() throws Exception {
        if (redis != null) {
            redis.close();
        }
        if (replica != null) {
            replica.close();
        }
        if (master != null) {
            master.close();
        }
    }

    private static DurabilityBarrier barrier() throws Exception {
        DurabilityBarrier barrier = new DurabilityBarrier(redis, new Keys("barrier", 1), new DurabilitySettings(1, LocalFsync.AUTO, 1_000));
        barrier.serversChecked(new RedisServerFactsReader(redis).readMasters().get(5, TimeUnit.SECONDS));
        assertThat(barrier.describePlan()).as("Redis 7.0 without AOF: WAIT only").isEqualTo("WAIT 1 1000");
        return barrier;
    }

    private static void write(String value) throws Exception {
        redis.async().set("barrier:{barrier:0}:probe".getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)).get(5, TimeUnit.SECONDS);
    }

    @Test
    void writesTheReplicaHasAreConfirmed() throws Exception {
        DurabilityBarrier.Fence fence = barrier().open(List.of(0)).get(5, TimeUnit.SECONDS);
        write("a");
        assertThat(awaitAnswer(fence)).isTrue();
    }

    @Test
    void whileTheReplicaIsFrozenNothingIsConfirmedAndTheSameFenceConfirmsOnceItIsBack() throws Exception {
        DurabilityBarrier.Fence fence = barrier().open(List.of(0)).get(5, TimeUnit.SECONDS);
        replica.freeze();
        try {
            write("b");
            assertThatThrownBy(() -> fence.confirm().get(5, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(DurabilityNotConfirmedException.class)
                    .hasMessageContaining("WAIT 1 1000: 0 of 1 replicas acknowledged");
        } finally {
            replica.thaw();
        }
        assertThat(awaitAnswer(fence)).as("the same fence, once the replica caught up").isTrue();
    }

    @Test
    void aFenceWhoseConnectionWasReestablishedAnswersFalse() throws Exception {
        DurabilityBarrier.Fence fence = barrier().open(List.of(0)).get(5, TimeUnit.SECONDS);
        write("c");
        long id = redis.async().clientId().get(5, TimeUnit.SECONDS);
        RedisServerProcessCli.killClient(master.port(), id);
        for (int i = 0; i < 100 && !redis.isConnected(); i++) {
            Thread.sleep(50);
        }
        // the WAIT now runs on a new server-side client that wrote nothing: it proves nothing about the write above
        assertThat(awaitAnswer(fence)).isFalse();
    }

    /** Confirms until an answer comes: a reconnect or a replica catching up fails a few tries first. */
    private static boolean awaitAnswer(DurabilityBarrier.Fence fence) throws Exception {
        for (int attempt = 0; ; attempt++) {
            try {
                return fence.confirm().get(5, TimeUnit.SECONDS);
            } catch (ExecutionException reconnecting) {
                if (attempt > 50) {
                    throw reconnecting;
                }
                Thread.sleep(100);
            }
        }
    }

    /** redis-cli, for what the test's own connection must not do itself. */
    private static final class RedisServerProcessCli {
        static void killClient(int port, long clientId) throws Exception {
            Process process = new ProcessBuilder("redis-cli", "-p", Integer.toString(port), "CLIENT", "KILL", "ID", Long.toString(clientId))
                    .redirectErrorStream(true).start();
            assertThat(new String(process.getInputStream().readAllBytes()).strip()).isEqualTo("1");
            process.waitFor();
        }
    }
}
