package io.github.redisdelaybridge.message.codec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OriginPartsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NONE", value = {
        "kafka:delay.inbound/0@42     | kafka:delay.inbound/0@    | 42",
        "kafka:t/12@0                 | kafka:t/12@               | 0",
        "rabbitmq:orders              | rabbitmq:orders           | NONE",
        "rabbitmq:q-007               | rabbitmq:q-00             | 7",
        "x00                          | x0                        | 0",
        "123                          | ''                        | 123",
        "''                           | ''                        | NONE",
        "kafka:t/0@999999999999999999 | kafka:t/0@                | 999999999999999999",
        "kafka:t/0@1000000000000000000| kafka:t/0@1000000000000000000 | NONE",
        "kafka:t/0@٣                  | kafka:t/0@٣               | NONE",
    })
    void splitsOffTheTrailingNumberAndJoinsBackToTheSameText(String origin, String stem, Long number) {
        OriginParts parts = OriginParts.of(origin);

        assertThat(parts.stem()).isEqualTo(stem);
        assertThat(parts.number()).isEqualTo(number);
        assertThat(parts.joined()).isEqualTo(origin);
    }
}
