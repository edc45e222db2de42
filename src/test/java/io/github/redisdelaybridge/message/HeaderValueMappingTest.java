package io.github.redisdelaybridge.message;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.LongString;
import com.rabbitmq.client.impl.LongStringHelper;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The header value rules between Kafka bytes and typed AMQP values, as the README's mapping table states them. */
class HeaderValueMappingTest {

    private static final byte[] NOT_UTF8 = {(byte) 0xC3, (byte) 0x28, (byte) 0xFF};

    @Test
    void typedAmqpValuesBecomeTextOnKafka() {
        assertThat(text("héllo")).isEqualTo("héllo");
        assertThat(text(LongStringHelper.asLongString("long"))).isEqualTo("long");
        assertThat(text(1500)).isEqualTo("1500");
        assertThat(text(-9_000_000_000L)).isEqualTo("-9000000000");
        assertThat(text((short) 7)).isEqualTo("7");
        assertThat(text((byte) -1)).isEqualTo("-1");
        assertThat(text(1500.5d)).isEqualTo("1500.5");
        assertThat(text(1e22d)).as("never exponent notation").isEqualTo("10000000000000000000000");
        assertThat(text(0.25f)).isEqualTo("0.25");
        assertThat(text(Double.NaN)).isEqualTo("NaN");
        assertThat(text(new BigDecimal("1E+3"))).isEqualTo("1000");
        assertThat(text(true)).isEqualTo("true");
        assertThat(text(Date.from(Instant.parse("2026-12-01T10:00:00Z")))).isEqualTo("2026-12-01T10:00:00Z");
        Map<String, Object> table = new LinkedHashMap<>();
        table.put("s", "a\"b");
        table.put("n", 1);
        table.put("b", new byte[] {1, 2});
        table.put("l", List.of(true, LongStringHelper.asLongString("x")));
        table.put("v", null);
        assertThat(text(table)).isEqualTo("{\"s\":\"a\\\"b\",\"n\":1,\"b\":\"AQI=\",\"l\":[true,\"x\"],\"v\":null}");
    }

    @Test
    void bytesPassUnchangedAndVoidIsNoValue() {
        assertThat(HeaderValueMapping.plainBytes(NOT_UTF8)).isEqualTo(NOT_UTF8);
        assertThat(HeaderValueMapping.plainBytes(LongStringHelper.asLongString(NOT_UTF8))).isEqualTo(NOT_UTF8);
        assertThat(HeaderValueMapping.plainBytes(null)).isNull();
    }

    @Test
    void kafkaBytesBecomeAStringWhenUtf8ElseAByteArray() {
        assertThat(HeaderValueMapping.amqpValue("héllo".getBytes(StandardCharsets.UTF_8))).isEqualTo("héllo");
        assertThat(HeaderValueMapping.amqpValue(new byte[0])).isEqualTo("");
        assertThat(HeaderValueMapping.amqpValue(NOT_UTF8)).isEqualTo(NOT_UTF8);
        assertThat(HeaderValueMapping.amqpValue(null)).isNull();
    }

    @Test
    void aTypedHeaderRoundTripsThroughItsFieldValueWithTypeAndBytes() {
        Object[] values = {"s", LongStringHelper.asLongString(NOT_UTF8), 1, 2L, (short) 3, (byte) 4, 5.5d, 6.5f,
                new BigDecimal("7.25"), true, Date.from(Instant.parse("2026-01-01T00:00:00Z")), NOT_UTF8,
                Map.of("k", List.of(1, "x")), null};
        for (Object value : values) {
            MessageHeader header = MessageHeader.amqp("h", value);
            Object back = header.amqpValue();
            assertThat(AmqpFieldValues.encode(back)).as("%s", value).isEqualTo(AmqpFieldValues.encode(value));
        }
        assertThat(MessageHeader.amqp("h", "s").amqpValue()).as("strings come back as long strings").isInstanceOf(LongString.class);
        assertThat(MessageHeader.amqp("h", 42).plainBytes()).isEqualTo("42".getBytes(StandardCharsets.UTF_8));
        assertThat(MessageHeader.amqp("h", null).plainBytes()).isNull();
    }

    @Test
    void aRawHeaderReadsAsItsBytesOnKafkaAndAsStringOrBytesOnRabbitMq() {
        MessageHeader text = MessageHeader.text("h", "v");
        assertThat(text.plainBytes()).isEqualTo("v".getBytes(StandardCharsets.UTF_8));
        assertThat(text.amqpValue()).isEqualTo("v");
        assertThat(new MessageHeader("h", NOT_UTF8).amqpValue()).isEqualTo(NOT_UTF8);
        assertThat(new MessageHeader("h", null).amqpValue()).isNull();
    }

    private static String text(Object amqpValue) {
        return new String(HeaderValueMapping.plainBytes(amqpValue), StandardCharsets.UTF_8);
    }
}
