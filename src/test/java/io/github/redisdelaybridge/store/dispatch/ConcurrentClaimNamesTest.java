package io.github.redisdelaybridge.store.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Claims read their members and payloads on the bridge's side with one shared copy of the slot's names hash
 * ({@link ClaimedNames}), starting cold and learning codes as claims need them. Claims that run at once (several
 * threads; chunks completing on the caller's thread and on Lettuce's; empty claims among full ones) each come back
 * with every message's own id and envelope, none left in the stored form. (The race that once left whole chunks
 * unread, an empty claim resetting the copy, is ruled out by {@link SlotNames} keeping names per tag; it showed in
 * LeaseTakeoverTest, this test exercises the same paths on the store alone.)
 */
class ConcurrentClaimNamesTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-concurrent-names");

    private static final int MESSAGES = 12_000;
    private static final int TARGETS = 40;

    @Test
    void concurrentClaimsEmptyOnesIncludedAllReadEveryName() throws Exception {
        Keys keys = new Keys(redis.prefix(), 1);
        StoreLimits limits = new StoreLimits(3_600_000, 60_000, 60_000, 100_000, 60_000);
        StoreFaces writer = StoreFaces.over(redis.connection().async(), keys, limits);
        // a bridge that starts cold: one store, its copy of the names empty, claimed from by several threads at once while
        // messages keep arriving, so that most claim calls (a claim of 2,000 is 20 calls) come back empty among full ones
        StoreFaces store = StoreFaces.over(redis.connection().async(), keys, limits);
        ConcurrentLinkedQueue<ClaimedMessage> claimed = new ConcurrentLinkedQueue<>();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> running = new ArrayList<>();
            running.add(threads.submit(() -> {
                for (int from = 0; from < MESSAGES; from += 100) {
                    List<ScheduleRequest> requests = new ArrayList<>();
                    for (int i = from; i < from + 100; i++) {
                        requests.add(new ScheduleRequest("in-" + (i % 3) + "-" + i, new DueTime.AfterDelay(0), envelope(i)));
                    }
                    writer.ingest().schedule(requests).get(30, TimeUnit.SECONDS);
                }
                return null;
            }));
            for (int t = 0; t < 3; t++) {
                running.add(threads.submit(() -> {
                    long giveUpAt = System.currentTimeMillis() + 60_000;
                    while (claimed.size() < MESSAGES && System.currentTimeMillis() < giveUpAt) {
                        claimed.addAll(store.dispatch().claim(0, 2_000, 60_000).get(30, TimeUnit.SECONDS).messages());
                    }
                    return null;
                }));
            }
            for (Future<?> thread : running) {
                thread.get(120, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }

        assertThat(claimed).hasSize(MESSAGES);
        for (ClaimedMessage message : claimed) {
            assertThat(message.idResolved()).as(message.messageId()).isTrue();
            int i = Integer.parseInt(message.messageId().substring(message.messageId().lastIndexOf('-') + 1));
            assertThat(message.messageId()).isEqualTo("in-" + (i % 3) + "-" + i);
            assertThat(EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope())).isEqualTo(envelope(i));
        }
    }

    private static Envelope envelope(int i) {
        return new Envelope("in-" + (i % 3) + "-" + i, "kafka:out-" + (i % TARGETS), "kafka:in-" + (i % 3) + "/0@" + i, null, List.of(), Map.of(),
                ("body " + i).getBytes(StandardCharsets.UTF_8));
    }
}
