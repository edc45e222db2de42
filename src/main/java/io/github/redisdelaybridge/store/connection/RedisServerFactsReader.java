package io.github.redisdelaybridge.store.connection;

import io.lettuce.core.api.async.RedisAsyncCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Reads {@link RedisServerFacts} from every master the bridge writes to. */
public final class RedisServerFactsReader {

    private final RedisConnection redis;

    public RedisServerFactsReader(RedisConnection redis) {
        this.redis = redis;
    }

    public CompletableFuture<List<RedisServerFacts>> readMasters() {
        return redis.masterConnections().thenCompose(masters -> {
            List<CompletableFuture<RedisServerFacts>> facts = new ArrayList<>();
            for (MasterNode master : masters) {
                facts.add(read(master));
            }
            return CompletableFuture.allOf(facts.toArray(CompletableFuture[]::new))
                    .thenApply(done -> facts.stream().map(CompletableFuture::join).toList());
        });
    }

    private static CompletableFuture<RedisServerFacts> read(MasterNode master) {
        RedisAsyncCommands<byte[], byte[]> commands = master.connection().async();
        CompletableFuture<String> info = commands.info().toCompletableFuture();
        // CONFIG may be denied by an ACL or renamed away: then appendfsync is unknown, not a failure
        CompletableFuture<String> appendfsync = commands.configGet("appendfsync").toCompletableFuture()
                .thenApply(values -> values.get("appendfsync"))
                .exceptionally(denied -> null);
        return info.thenCombine(appendfsync, (text, fsync) -> RedisServerFacts.fromInfo(master.address(), text, fsync));
    }
}
