package io.github.redisdelaybridge.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import io.github.redisdelaybridge.message.MessageHeader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a stored message looks like on each target broker: AMQP properties and headers, Kafka headers. */
class BrokerMessageMappingTest {

    private static final byte[] NOT_UTF8 = {(byte) 0xFF, 0};

    @Test
    void onRabbitMqPropertiesComeBackTypedHeadersKeepTheirTypesAndTheKafkaKeyIsAHeader() {
        List<MessageHeader> headers = List.of(
                MessageHeader.amqp("n", 42),
                MessageHeader.text("repeated", "first"),
                MessageHeader.text("repeated", "last"),
                new MessageHeader("binary", NOT_UTF8),
                new MessageHeader("none", null));
        Map<String, String> properties = Map.of("content-type", "application/json", "content-encoding", "gzip",
                "message-id", "m-1", "correlation-id", "c-1", "priority", "4", "reply-to", "r", "type", "t",
                "app-id", "a", "timestamp", "2026-01-02T03:04:05Z", "expiration", "60000");

        AMQP.BasicProperties p = AmqpMessageMapping.properties(headers, properties, "key".getBytes(StandardCharsets.UTF_8));

        assertThat(p.getDeliveryMode()).isEqualTo(2);
        assertThat(p.getContentType()).isEqualTo("application/json");
        assertThat(p.getContentEncoding()).isEqualTo("gzip");
        assertThat(p.getMessageId()).isEqualTo("m-1");
        assertThat(p.getCorrelationId()).isEqualTo("c-1");
        assertThat(p.getPriority()).isEqualTo(4);
        assertThat(p.getReplyTo()).isEqualTo("r");
        assertThat(p.getType()).isEqualTo("t");
        assertThat(p.getAppId()).isEqualTo("a");
        assertThat(p.getTimestamp()).isEqualTo(Date.from(Instant.parse("2026-01-02T03:04:05Z")));
        assertThat(p.getExpiration()).isEqualTo("60000");
        assertThat(p.getUserId()).isNull();
        assertThat(p.getHeaders().get("n")).isEqualTo(42);
        assertThat(p.getHeaders().get("repeated")).as("last value of a repeated Kafka header").isEqualTo("last");
        assertThat(p.getHeaders().get("binary")).isEqualTo(NOT_UTF8);
        assertThat(p.getHeaders()).containsEntry("none", null);
        assertThat(p.getHeaders().get("x-kafka-key")).isEqualTo("key");
    }

    @Test
    void withoutPropertiesOrKeyNothingIsInvented() {
        AMQP.BasicProperties p = AmqpMessageMapping.properties(List.of(), Map.of(), null);

        assertThat(p.getHeaders()).isEmpty();
        assertThat(p.getContentType()).isNull();
        assertThat(p.getMessageId()).isNull();
        assertThat(p.getPriority()).isNull();
        assertThat(p.getTimestamp()).isNull();
    }

    @Test
    void onKafkaTypedHeadersAreTextAndPropertiesFollowAsAmqpHeaders() {
        List<MessageHeader> mapped = KafkaHeaderMapping.headers(
                List.of(MessageHeader.amqp("n", 42), new MessageHeader("raw", NOT_UTF8), MessageHeader.amqp("v", null)),
                Map.of("priority", "4", "content-type", "text/plain"));

        assertThat(mapped).containsExactly(
                MessageHeader.text("n", "42"),
                new MessageHeader("raw", NOT_UTF8),
                new MessageHeader("v", null),
                MessageHeader.text("amqp-content-type", "text/plain"),
                MessageHeader.text("amqp-priority", "4"));
    }
}
