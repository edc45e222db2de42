package io.github.redisdelaybridge.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.inbound.DueTimeParser;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.store.inspection.ListPosition;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiRequestsTest {

    private static final Set<String> DUE_FIELDS = Set.of("delayMs", "deliverAt");

    private final DueTimeParser parser = new DueTimeParser(86_400_000);

    @Test
    void cursorsRoundTripAnyMemberAndSlotAndRejectGarbage() {
        ListPosition verbatim = new ListPosition(1_796_119_200_000L, "order:42/ü timeout".getBytes(StandardCharsets.UTF_8), 3);
        ListPosition packed = new ListPosition(-5, new byte[] {(byte) 0xFF, 17, 1, 0, (byte) 0x87, (byte) 0xAD, 0x4B, ':'}, 0);

        assertThat(ApiRequests.cursor(ApiRequests.cursorOf(verbatim))).isEqualTo(verbatim);
        assertThat(ApiRequests.cursor(ApiRequests.cursorOf(packed))).isEqualTo(packed);
        assertThat(ApiRequests.cursorOf(null)).isNull();
        assertThat(ApiRequests.cursor(null)).isNull();
        assertBadRequest(() -> ApiRequests.cursor("garbage!"), "cursor");
        assertBadRequest(() -> ApiRequests.cursor("bm8tY29sb24"), "cursor");
        assertBadRequest(() -> ApiRequests.cursor("eDox"), "cursor");
        assertBadRequest(() -> ApiRequests.cursor(base64("12/-1:x")), "cursor");
    }

    @Test
    void aCursorWithoutASlotIsRefusedRatherThanReadAsAScoreAndSlot() {
        assertBadRequest(() -> ApiRequests.cursor(base64("1796119200000:order:42/ü")), "is not one this API returned as nextCursor");
        assertBadRequest(() -> ApiRequests.cursor(base64("7:x")), "is not one this API returned as nextCursor");
    }

    @Test
    void theStoredCursorFixtureReadsAsItsPositionAndIsWrittenTheSame() throws Exception {
        // stored-forms/cursor.txt: "cursor <text>", "score <n>", "slot <n>", "member hex:<bytes>" (docs/storage-formats.md)
        Map<String, String> fixture = new HashMap<>();
        try (InputStream in = ApiRequestsTest.class.getResourceAsStream("/stored-forms/cursor.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    fixture.put(line.substring(0, line.indexOf(' ')), line.substring(line.indexOf(' ') + 1));
                }
            }
        }
        ListPosition position = new ListPosition(Long.parseLong(fixture.get("score")),
                HexFormat.of().parseHex(fixture.get("member").substring("hex:".length())), Integer.parseInt(fixture.get("slot")));

        assertThat(ApiRequests.cursor(fixture.get("cursor"))).isEqualTo(position);
        assertThat(ApiRequests.cursorOf(position)).isEqualTo(fixture.get("cursor"));
    }

    private static String base64(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void limits() {
        assertThat(ApiRequests.limit(null, 100, 1_000)).isEqualTo(100);
        assertThat(ApiRequests.limit(" 7 ", 100, 1_000)).isEqualTo(7);
        assertThat(ApiRequests.limit("1000", 100, 1_000)).isEqualTo(1_000);
        for (String bad : new String[] {"0", "-1", "1001", "ten", "", "1.5", "99999999999"}) {
            assertBadRequest(() -> ApiRequests.limit(bad, 100, 1_000), "limit must be a whole number from 1 to 1000");
        }
    }

    @Test
    void wholeNumbersWithinTheirRangeAndNamedWhenNot() {
        assertThat(ApiRequests.wholeNumber(null, "bucketMs", 60_000, 1_000, 86_400_000)).isEqualTo(60_000);
        assertThat(ApiRequests.wholeNumber("86400000", "bucketMs", 60_000, 1_000, 86_400_000)).isEqualTo(86_400_000);
        for (String bad : new String[] {"999", "86400001", "1.5", "soon", "99999999999999999999"}) {
            assertBadRequest(() -> ApiRequests.wholeNumber(bad, "bucketMs", 60_000, 1_000, 86_400_000),
                    "bucketMs must be a whole number from 1000 to 86400000");
        }
    }

    @Test
    void flags() {
        assertThat(ApiRequests.flag(null, "body")).isFalse();
        assertThat(ApiRequests.flag("TRUE", "body")).isTrue();
        assertThat(ApiRequests.flag("false", "body")).isFalse();
        assertBadRequest(() -> ApiRequests.flag("yes", "body"), "body must be true or false");
    }

    @Test
    void dueTimesFromJsonBodies() {
        assertThat(due("{\"delayMs\": 1500}")).isEqualTo(new DueTime.AfterDelay(1_500));
        assertThat(due("{\"delayMs\": \"1500\"}")).isEqualTo(new DueTime.AfterDelay(1_500));
        assertThat(due("{\"delayMs\": \"PT1.5S\"}")).isEqualTo(new DueTime.AfterDelay(1_500));
        assertThat(due("{\"delayMs\": \" P1D \"}")).isEqualTo(new DueTime.AfterDelay(86_400_000));
        assertThat(due("{\"delayMs\": \"PT0.0005S\"}")).as("sub-millisecond rounds up").isEqualTo(new DueTime.AfterDelay(1));
        assertThat(due("{\"deliverAt\": 1796119200000}")).isEqualTo(new DueTime.At(1_796_119_200_000L));
        assertThat(due("{\"deliverAt\": \"2026-12-01T11:00:00+01:00\"}")).isEqualTo(new DueTime.At(1_796_119_200_000L));
        assertThat(ApiRequests.dueTime(json("{}"), parser, false)).isNull();

        assertBadRequest(() -> due("{}"), "body must give delayMs");
        assertBadRequest(() -> due("{\"delayMs\": 1, \"deliverAt\": 1}"), "not both");
        assertBadRequest(() -> due("{\"delayMs\": 1500.2}"), "delayMs must be a whole number of milliseconds (an integer");
        assertBadRequest(() -> due("{\"delayMs\": 1.5}"), "delayMs must be a whole number of milliseconds (an integer");
        assertBadRequest(() -> due("{\"delayMs\": true}"), "delayMs must be a whole number of milliseconds or an ISO-8601 duration");
        assertBadRequest(() -> due("{\"delayMs\": \"soon\"}"), "delayMs must be a whole number of milliseconds");
        assertBadRequest(() -> due("{\"delayMs\": -1}"), "delayMs must not be negative");
        assertBadRequest(() -> due("{\"delayMs\": \"-PT1S\"}"), "delayMs must not be negative");
        assertBadRequest(() -> due("{\"delayMs\": \"P2D\"}"), "exceeds the maximum delay of 86400000 ms");
        assertBadRequest(() -> due("{\"delayMs\": 86400001}"), "delayMs 86400001 ms exceeds the maximum delay of 86400000 ms");
        assertBadRequest(() -> due("{\"deliverAt\": 1.5}"), "deliverAt must be epoch milliseconds");
        assertBadRequest(() -> due("{\"deliverAt\": \"noon\"}"), "deliverAt must be epoch milliseconds or an ISO-8601 instant");
    }

    @Test
    void jsonBodiesMustBeObjectsWithKnownFields() {
        assertThat(json("").isEmpty()).isTrue();
        assertThat(json("  ").isEmpty()).isTrue();
        assertBadRequest(() -> json("{"), "not valid JSON");
        assertBadRequest(() -> json("5"), "must be a JSON object");
        assertBadRequest(() -> json("null"), "must be a JSON object");
        assertBadRequest(() -> json("{\"delay\": 5}"), "unknown field 'delay'; allowed: delayMs, deliverAt");
        assertBadRequest(() -> ApiRequests.text(json("{\"deliverAt\": 5}"), "deliverAt"), "deliverAt must be a string");
    }

    @Test
    void instants() {
        assertThat(ApiRequests.instant("1000", "dueBefore", parser)).isEqualTo(1_000);
        assertThat(ApiRequests.instant("2026-12-01T10:00:00Z", "dueBefore", parser)).isEqualTo(1_796_119_200_000L);
        assertBadRequest(() -> ApiRequests.instant("soon", "dueBefore", parser), "dueBefore must be epoch milliseconds or an ISO-8601 instant");
    }

    private DueTime due(String body) {
        return ApiRequests.dueTime(json(body), parser, true);
    }

    private static JsonNode json(String body) {
        return ApiRequests.jsonObject(body, DUE_FIELDS, "{\"delayMs\": 1}");
    }

    private static void assertBadRequest(Runnable call, String message) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).contains(message);
        });
    }
}
