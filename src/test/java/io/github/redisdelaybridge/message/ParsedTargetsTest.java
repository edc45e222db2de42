package io.github.redisdelaybridge.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ParsedTargetsTest {

    @Test
    void aTextIsParsedOnceAndGivesTheSameTargetEachTime() {
        ParsedTargets targets = new ParsedTargets();
        Target first = targets.parse(new String("kafka:orders.expired"));
        Target again = targets.parse(new String("kafka:orders.expired"));

        assertThat(first).isEqualTo(new Target.Kafka("orders.expired"));
        assertThat(again).isSameAs(first);
        assertThat(targets.parse("rabbitmq:billing/due")).isEqualTo(new Target.RabbitMq("billing", "due"));
    }

    @Test
    void anIllegalTextThrowsEveryTimeWithParsesReason() {
        ParsedTargets targets = new ParsedTargets();
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> targets.parse("kafka:no spaces"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("legal topic name");
        }
    }

    @Test
    void pastItsBoundItStartsAgainAndStillParsesRight() {
        ParsedTargets targets = new ParsedTargets();
        Target first = targets.parse("kafka:t-0");
        for (int i = 1; i <= ParsedTargets.MAX_REMEMBERED; i++) {
            assertThat(targets.parse("kafka:t-" + i)).isEqualTo(new Target.Kafka("t-" + i));
        }
        Target afterwards = targets.parse("kafka:t-0");

        assertThat(afterwards).isEqualTo(first).isNotSameAs(first);
    }
}
