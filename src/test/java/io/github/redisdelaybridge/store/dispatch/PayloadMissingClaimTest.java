package io.github.redisdelaybridge.store.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A due member whose payload is gone (evicted, or deleted by hand) is claimed and handed to the bridge without an
 * envelope, under a lease like any other, so that it is dead-lettered: it is not dropped unseen.
 */
class PayloadMissingClaimTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-payload-missing");

    @Test
    void dueMemberWithoutPayloadIsClaimedWithoutEnvelopeNotSkipped() throws Exception {
        Keys keys = new Keys(redis.prefix(), 1);
        StoreFaces store = StoreFaces.over(redis.connection().async(), keys, new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 60_000));
        for (String id : List.of("kept", "orphan")) {
            Envelope envelope = new Envelope(id, "kafka:out", "kafka:in/0@1", null, List.of(), Map.of(), id.getBytes(StandardCharsets.UTF_8));
            store.ingest().schedule(List.of(new ScheduleRequest(id, new DueTime.AfterDelay(0), envelope))).get(5, TimeUnit.SECONDS);
        }
        byte[] payloads = keys.payloads(0).getBytes(StandardCharsets.UTF_8);
        assertThat(redis.connection().async().hdel(payloads, "orphan".getBytes(StandardCharsets.UTF_8)).get(5, TimeUnit.SECONDS)).isEqualTo(1);

        ClaimedBatch claimed = store.dispatch().claim(0, 10, 60_000).get(5, TimeUnit.SECONDS);

        assertThat(claimed.messages()).extracting(ClaimedMessage::messageId).containsExactlyInAnyOrder("kept", "orphan");
        ClaimedMessage orphan = claimed.messages().stream().filter(m -> m.messageId().equals("orphan")).findFirst().orElseThrow();
        assertThat(orphan.encodedEnvelope()).isNull();
        assertThat(redis.connection().async().zscore(keys.inFlight(0).getBytes(StandardCharsets.UTF_8), orphan.member())
                .get(5, TimeUnit.SECONDS)).as("leased, so that only this claim settles it").isEqualTo((double) orphan.leaseDeadline());
    }
}
