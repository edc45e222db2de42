package io.github.redisdelaybridge.inbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TargetChecksTest {

    private final TargetChecks checks = new TargetChecks(
            new TargetPolicy(List.of("kafka:orders.*", "kafka:delay.inbound"), Set.of("kafka:delay.inbound"), Set.of("kafka")));

    @Test
    void anAllowedTargetIsTheSameTargetEachTime() throws Rejection {
        Target first = checks.check(new String("kafka:orders.expired"));

        assertThat(first).isEqualTo(new Target.Kafka("orders.expired"));
        assertThat(checks.check(new String("kafka:orders.expired"))).isSameAs(first);
    }

    @Test
    void eachRefusalKeepsItsReasonEveryTime() {
        for (int i = 0; i < 2; i++) {
            assertThat(reasonFor("kafka:no spaces")).isEqualTo(DeadLetterReason.INVALID_TARGET);
            assertThat(reasonFor("rabbitmq:billing/due")).as("no RabbitMQ publisher here").isEqualTo(DeadLetterReason.INVALID_TARGET);
            assertThat(reasonFor("kafka:payments")).isEqualTo(DeadLetterReason.FORBIDDEN_TARGET);
            assertThat(reasonFor("kafka:delay.inbound")).as("an inbound channel, allowed or not").isEqualTo(DeadLetterReason.FORBIDDEN_TARGET);
        }
        assertThat(catchThrowableOfType(() -> checks.check("kafka:payments"), Rejection.class).detail())
                .contains("not in the allow-list");
    }

    @Test
    void pastItsBoundItStartsAgainAndStillDecidesRight() throws Rejection {
        Target first = checks.check("kafka:orders.0");
        for (int i = 1; i <= TargetChecks.MAX_REMEMBERED; i++) {
            assertThat(checks.check("kafka:orders." + i)).isEqualTo(new Target.Kafka("orders." + i));
        }
        assertThat(checks.check("kafka:orders.0")).isEqualTo(first).isNotSameAs(first);
        assertThat(reasonFor("kafka:payments")).isEqualTo(DeadLetterReason.FORBIDDEN_TARGET);
    }

    private DeadLetterReason reasonFor(String text) {
        return catchThrowableOfType(() -> checks.check(text), Rejection.class).reason();
    }
}
