package io.github.redisdelaybridge.store.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.connection.ConnectedReplicas.MasterReplicas;
import io.github.redisdelaybridge.store.connection.DurabilitySettings.LocalFsync;
import io.github.redisdelaybridge.testkit.RedisServerProcess;
import io.github.redisdelaybridge.testkit.RedisSentinelGroup;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code wait-replicas=auto} and the floor against redis-server processes of the test's own: the barrier waits for the
 * replicas the master has connected now, holds while one of them does not confirm, goes on once the master has lost it,
 * and with {@code min-replicas} holds a master with too few replicas until one attaches.
 */
class ConnectedReplicasTest {

    private static final DurabilitySettings AUTO = new DurabilitySettings(DurabilitySettings.EVERY_CONNECTED_REPLICA, 0, LocalFsync.FALSE, 500);

    @Test
    void waitsForTheReplicaConnectedNowAndNoLongerOnceTheMasterLostIt() throws Exception {
        try (RedisServerProcess master = new RedisServerProcess("auto-master", false).start();
             RedisServerProcess replica = new RedisServerProcess("auto-replica", false).replicaOf(master).start();
             RedisConnection redis = new RedisConnection(master.uri(), Duration.ofSeconds(5))) {
            awaitOnlineReplicas(master, 1);
            DurabilityBarrier barrier = new DurabilityBarrier(redis, new Keys("auto", 1), AUTO);
            barrier.serversChecked(List.of());
            assertThat(barrier.describePlan()).isEqualTo("WAIT <every connected replica> 500");
            assertThat(awaitAnswer(barrier, redis, "a")).as("the replica has the write").isTrue();

            replica.freeze();
            DurabilityBarrier.Fence fence = openWhenConnected(barrier);
            write(redis, "b");
            assertThatThrownBy(() -> fence.confirm().get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(DurabilityNotConfirmedException.class).hasMessageContaining("WAIT 1 500: 0 of 1 replicas");

            // killed, it closes its link: the master drops it, and the same batch is confirmed without it
            replica.crash();
            awaitOnlineReplicas(master, 0);
            assertThat(confirmUntilAnswered(fence)).as("the master has no replica now: nothing to wait for").isTrue();
            barrier.refreshReplicas().get(5, TimeUnit.SECONDS);
            assertThat(barrier.replicas().snapshot()).as("below the most seen since start")
                    .containsExactly(new MasterReplicas("127.0.0.1:" + master.port(), 0, 1));
        }
    }

    @Test
    void theFloorHoldsBatchesUntilEnoughReplicasAreConnected() throws Exception {
        try (RedisServerProcess master = new RedisServerProcess("floor-master", false).start();
             RedisServerProcess replica = new RedisServerProcess("floor-replica", false).replicaOf(master);
             RedisConnection redis = new RedisConnection(master.uri(), Duration.ofSeconds(5))) {
            DurabilityBarrier barrier = new DurabilityBarrier(redis, new Keys("floor", 1),
                    new DurabilitySettings(DurabilitySettings.EVERY_CONNECTED_REPLICA, 1, LocalFsync.FALSE, 500));
            barrier.serversChecked(List.of());
            DurabilityBarrier.Fence fence = openWhenConnected(barrier);
            write(redis, "c");
            assertThatThrownBy(() -> fence.confirm().get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(DurabilityNotConfirmedException.class)
                    .hasMessage("Redis 127.0.0.1:" + master.port() + " has 0 replica(s) connected, fewer than bridge.redis.min-replicas=1:"
                            + " the batch is held until enough replicas are connected");

            replica.start();
            awaitOnlineReplicas(master, 1);
            assertThat(confirmUntilAnswered(fence)).as("a replica is connected and has the write").isTrue();
        }
    }

    @Test
    void aMasterWithoutReplicaNeedsNoFenceUntilAReplicaAttaches() throws Exception {
        try (RedisServerProcess master = new RedisServerProcess("alone-master", false).start();
             RedisServerProcess replica = new RedisServerProcess("alone-replica", false).replicaOf(master);
             RedisConnection redis = new RedisConnection(master.uri(), Duration.ofSeconds(5))) {
            // connected first: a connection that opens forgets every count, and would make the first fence wait for a read
            write(redis, "c");
            DurabilityBarrier barrier = new DurabilityBarrier(redis, new Keys("alone", 1), AUTO);
            barrier.serversChecked(List.of());
            barrier.refreshReplicas().get(5, TimeUnit.SECONDS);
            assertThat(barrier.open(List.of(0)).get(5, TimeUnit.SECONDS)).as("no replica anywhere: nothing to wait for, as with 0")
                    .isSameAs(DurabilityBarrier.Fence.NONE);

            replica.start();
            awaitOnlineReplicas(master, 1);
            Thread.sleep(ConnectedReplicas.READING_TTL_MS);
            DurabilityBarrier.Fence fence = barrier.open(List.of(0)).get(5, TimeUnit.SECONDS);
            assertThat(fence).as("the count is read again within a second").isNotSameAs(DurabilityBarrier.Fence.NONE);
            write(redis, "d");
            assertThat(confirmUntilAnswered(fence)).isTrue();
            assertThat(barrier.replicas().snapshot()).containsExactly(new MasterReplicas("127.0.0.1:" + master.port(), 1, 1));
        }
    }

    @Test
    void onlineReplicasAreCountedFromInfoReplication() {
        String info = "# Replication\r\nrole:master\r\nconnected_slaves:2\r\n"
                + "slave0:ip=10.0.0.3,port=6379,state=online,offset=98,lag=0\r\n"
                + "slave1:ip=10.0.0.4,port=6379,state=wait_bgsave,offset=0,lag=0\r\nmaster_failover_state:no-failover\r\n";
        assertThat(ConnectedReplicas.onlineReplicas(info)).as("one in sync, one still loading its copy").isEqualTo(1);
        assertThat(ConnectedReplicas.masterOf("id=7 addr=127.0.0.1:51234 laddr=127.0.0.1:6379")).isEqualTo("127.0.0.1:6379");
    }

    private static DurabilityBarrier.Fence openWhenConnected(DurabilityBarrier barrier) throws Exception {
        for (int attempt = 0; ; attempt++) {
            try {
                return barrier.open(List.of(0)).get(5, TimeUnit.SECONDS);
            } catch (ExecutionException connecting) {
                if (attempt > 100) {
                    throw connecting;
                }
                Thread.sleep(50);
            }
        }
    }

    private static boolean awaitAnswer(DurabilityBarrier barrier, RedisConnection redis, String value) throws Exception {
        DurabilityBarrier.Fence fence = openWhenConnected(barrier);
        write(redis, value);
        return confirmUntilAnswered(fence);
    }

    private static void write(RedisConnection redis, String value) throws Exception {
        redis.async().set("auto:{auto:0}:probe".getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8)).get(5, TimeUnit.SECONDS);
    }

    /** Confirms until an answer comes: the master takes a moment to notice a replica gone or synced. */
    private static boolean confirmUntilAnswered(DurabilityBarrier.Fence fence) throws Exception {
        for (int attempt = 0; ; attempt++) {
            try {
                return fence.confirm().get(5, TimeUnit.SECONDS);
            } catch (ExecutionException notYet) {
                if (attempt > 30) {
                    throw notYet;
                }
                Thread.sleep(200);
            }
        }
    }

    private static void awaitOnlineReplicas(RedisServerProcess master, int expected) throws Exception {
        String info = "";
        for (int i = 0; i < 200; i++) {
            info = RedisSentinelGroup.cli(master.port(), "INFO", "replication");
            if (ConnectedReplicas.onlineReplicas(info) == expected) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("master " + master.port() + " never had " + expected + " online replica(s):\n" + info);
    }
}
