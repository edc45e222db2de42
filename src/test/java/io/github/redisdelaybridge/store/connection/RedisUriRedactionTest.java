package io.github.redisdelaybridge.store.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Redis URI is shown without its user information whatever the password holds, and never when it cannot be parsed. */
class RedisUriRedactionTest {

    @ParameterizedTest
    @ValueSource(strings = {"p@ss-q7", "a/b-q7", "pa%ss-q7", "pa ss-q7", "a:b:c-q7", "@/:% @-q7", "a,b-q7", "a#b?c-q7"})
    void everyPasswordIsHidden(String password) {
        assertThat(RedisConnection.redacted("redis://bridge:" + password + "@redis.example:6379/0"))
                .isEqualTo("redis://***@redis.example:6379/0");
        assertThat(RedisConnection.redacted("rediss://:" + password + "@redis.example:6380"))
                .isEqualTo("rediss://***@redis.example:6380");
        assertThat(RedisConnection.redacted("redis-sentinel://:" + password + "@s1:26379,s2:26379,s3:26379#main"))
                .isEqualTo("redis-sentinel://***@s1:26379,s2:26379,s3:26379#main");
    }

    @Test
    void eachClusterSeedIsRedactedAndEveryHostStays() {
        assertThat(RedisConnection.redacted("redis://:p@1@n1:6379,redis://n2:6379, rediss://u:p/2@n3:6379"))
                .isEqualTo("redis://***@n1:6379,redis://n2:6379,rediss://***@n3:6379");
        assertThat(RedisConnection.redacted("redis://n1:6379")).isEqualTo("redis://n1:6379");
    }

    @Test
    void aPasswordWithACommaStaysInItsUri() {
        assertThat(RedisConnection.uris("redis://:a,b@n1:6379")).containsExactly("redis://:a,b@n1:6379");
        assertThat(RedisConnection.uris("redis://:a,b@n1:6379, redis://n2:6379")).containsExactly("redis://:a,b@n1:6379", "redis://n2:6379");
        assertThat(RedisConnection.uris("redis-sentinel://s1:26379,s2:26379#main")).containsExactly("redis-sentinel://s1:26379,s2:26379#main");
    }

    @Test
    void aUriThatCannotBeParsedIsNotEchoed() {
        for (String uri : List.of("redis://bridge:pa%ss-q7@redis.example:6379", "redis://bridge:pa ss-q7@redis.example:6379")) {
            assertThatThrownBy(() -> new RedisConnection(uri, Duration.ofSeconds(1)).close())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("setting bridge.redis.uri: cannot parse")
                    .hasMessageNotContaining("q7").hasMessageNotContaining("redis.example")
                    .satisfies(thrown -> {
                        for (Throwable t = thrown; t != null; t = t.getCause()) {
                            assertThat(String.valueOf(t.getMessage())).as("cause %s", t).doesNotContain("q7");
                        }
                    });
        }
    }

    @Test
    void twoUrisWithoutClusterModeAreRefusedWithoutTheirPasswords() {
        assertThatThrownBy(() -> new RedisConnection(List.of("redis://:secret-q7@n1:6379", "redis://:secret-q7@n2:6379"), false,
                Duration.ofSeconds(1)).close())
                .hasMessageNotContaining("q7").hasMessageContaining("n2:6379");
    }
}
