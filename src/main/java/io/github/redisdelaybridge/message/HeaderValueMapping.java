package io.github.redisdelaybridge.message;

import com.rabbitmq.client.LongString;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * How a header value crosses between brokers. Kafka header values are bytes; RabbitMQ header values are
 * typed. The rules (also in the README's mapping table):
 * <ul>
 *   <li>RabbitMQ to Kafka ({@link #plainBytes}): strings as their bytes (a long string's bytes as sent),
 *       numbers and booleans as text ({@code 1500}, {@code 1500.5}, {@code true}; never in exponent
 *       notation), a timestamp as an ISO-8601 instant, a byte array as-is, void as a null value, and a
 *       table or array as JSON text (byte arrays inside it as base64 strings).</li>
 *   <li>Kafka to RabbitMQ ({@link #amqpValue}): valid UTF-8 becomes a string header, any other bytes a
 *       byte-array header, a null value a void header.</li>
 * </ul>
 */
public final class HeaderValueMapping {

    private HeaderValueMapping() {
    }

    /** A typed AMQP value as the bytes of a Kafka header value. */
    public static byte[] plainBytes(Object amqpValue) {
        if (amqpValue == null) {
            return null;
        }
        if (amqpValue instanceof LongString longString) {
            return longString.getBytes();
        }
        if (amqpValue instanceof byte[] bytes) {
            return bytes;
        }
        return text(amqpValue).getBytes(StandardCharsets.UTF_8);
    }

    /** Kafka header bytes as a typed AMQP value: a string when they are valid UTF-8, else a byte array. */
    public static Object amqpValue(byte[] plainBytes) {
        if (plainBytes == null) {
            return null;
        }
        String text = StrictUtf8.decode(plainBytes);
        return text != null ? text : plainBytes;
    }

    private static String text(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? d.toString() : new BigDecimal(d.toString()).toPlainString();
        }
        if (value instanceof Float f) {
            return f.isNaN() || f.isInfinite() ? f.toString() : new BigDecimal(f.toString()).toPlainString();
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof Date date) {
            return date.toInstant().toString();
        }
        if (value instanceof Map<?, ?> || value instanceof List<?> || value instanceof Object[]) {
            StringBuilder json = new StringBuilder();
            appendJson(json, value);
            return json.toString();
        }
        return value.toString();
    }

    private static void appendJson(StringBuilder json, Object value) {
        if (value == null) {
            json.append("null");
        } else if (value instanceof Map<?, ?> map) {
            json.append('{');
            String separator = "";
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                json.append(separator);
                appendJsonString(json, String.valueOf(entry.getKey()));
                json.append(':');
                appendJson(json, entry.getValue());
                separator = ",";
            }
            json.append('}');
        } else if (value instanceof List<?> || value instanceof Object[]) {
            List<?> list = value instanceof Object[] array ? List.of(array) : (List<?>) value;
            json.append('[');
            for (int i = 0; i < list.size(); i++) {
                json.append(i == 0 ? "" : ",");
                appendJson(json, list.get(i));
            }
            json.append(']');
        } else if (value instanceof Number || value instanceof Boolean) {
            json.append(text(value));
        } else if (value instanceof byte[] bytes) {
            appendJsonString(json, Base64.getEncoder().encodeToString(bytes));
        } else if (value instanceof LongString longString) {
            appendJsonString(json, new String(longString.getBytes(), StandardCharsets.UTF_8));
        } else {
            appendJsonString(json, text(value));
        }
    }

    private static void appendJsonString(StringBuilder json, String text) {
        json.append('"');
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
