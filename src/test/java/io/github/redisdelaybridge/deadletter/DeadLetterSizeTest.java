package io.github.redisdelaybridge.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.deadletter.DeadLetterSize.WholeKept;
import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The forms a dead letter takes to fit a limit: whole, without body, without key and headers; and its bounded detail. */
class DeadLetterSizeTest {

    private static final String LIMIT = "bridge.dead-letter.kafka-max-bytes";

    @Test
    void aDeadLetterThatFitsIsSentAsItIs() {
        DeadLetter small = deadLetter(100, 100);

        assertThat(DeadLetterSize.fit(small, 16_384, LIMIT, WholeKept.IN_STORE)).isSameAs(small);
    }

    @Test
    void tooLargeItGoesWithoutItsBodyKeepingKeyAndHeaders() {
        DeadLetter large = deadLetter(50_000, 100);

        DeadLetter fitted = DeadLetterSize.fit(large, 16_384, LIMIT, WholeKept.IN_STORE);

        assertThat(fitted.body()).isEmpty();
        assertThat(fitted.key()).isEqualTo(large.key());
        assertThat(fitted.headers()).startsWith(large.headers().toArray(MessageHeader[]::new));
        assertThat(header(fitted, HeaderNames.DEAD_LETTER_DROPPED)).contains("body");
        assertThat(header(fitted, HeaderNames.DEAD_LETTER_DROPPED_DETAIL)).get().asString()
                .contains("body 50000").contains(LIMIT + " (16384 bytes)").contains("GET /api/dead-letters/{id}?body=true");
        assertThat(DeadLetterSize.of(fitted)).isLessThanOrEqualTo(16_384);
        assertThat(fitted.reason()).isEqualTo(large.reason());
        assertThat(fitted.detail()).isEqualTo(large.detail());
    }

    @Test
    void headersTooLargeAsWellItGoesBareSayingWhereTheMessageCameFrom() {
        DeadLetter large = deadLetter(50_000, 30_000);

        DeadLetter fitted = DeadLetterSize.fit(large, 16_384, LIMIT, WholeKept.NOWHERE);

        assertThat(fitted.body()).isEmpty();
        assertThat(fitted.key()).isNull();
        assertThat(fitted.headers()).extracting(MessageHeader::name)
                .containsExactly(HeaderNames.DEAD_LETTER_DROPPED, HeaderNames.DEAD_LETTER_DROPPED_DETAIL);
        assertThat(header(fitted, HeaderNames.DEAD_LETTER_DROPPED)).contains("body,key,headers");
        assertThat(header(fitted, HeaderNames.DEAD_LETTER_DROPPED_DETAIL)).get().asString()
                .contains("does not keep the whole message").contains("kafka:in/0@7");
        assertThat(DeadLetterSize.of(fitted)).isLessThanOrEqualTo(16_384);
    }

    @Test
    void theDetailIsBoundedAndSaysItWasCut() {
        DeadLetter deadLetter = new DeadLetter("id", DeadLetterReason.INVALID_DELAY, "x".repeat(10_000), "kafka:in/0@7", "", 0, null,
                List.of(), Map.of(), new byte[0]);

        assertThat(deadLetter.detail()).hasSize(DeadLetter.MAX_DETAIL_CHARS).endsWith("... (10000 characters, cut)");
    }

    private static DeadLetter deadLetter(int bodyBytes, int headerBytes) {
        return new DeadLetter("m-1", DeadLetterReason.INVALID_DELAY, "x-delay must be ...", "kafka:in/0@7", "", 0,
                "key".getBytes(StandardCharsets.UTF_8), List.of(MessageHeader.text("x-delay", "soon"),
                MessageHeader.text("big", "h".repeat(headerBytes))), Map.of(), new byte[bodyBytes]);
    }

    private static Optional<String> header(DeadLetter deadLetter, String name) {
        return deadLetter.headers().stream().filter(h -> h.name().equals(name)).findFirst()
                .map(h -> new String(h.plainBytes(), StandardCharsets.UTF_8));
    }
}
