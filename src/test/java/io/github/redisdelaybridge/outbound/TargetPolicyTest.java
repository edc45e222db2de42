package io.github.redisdelaybridge.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.Target;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TargetPolicyTest {

    private static final Set<String> BOTH_BROKERS = Set.of("kafka", "rabbitmq");

    @ParameterizedTest
    @ValueSource(strings = {"kafka:orders.expired", "kafka:orders.", "kafka:orders.a.b.c"})
    void globStarMatchesAnyRest(String target) {
        assertThat(allowing("kafka:orders.*").whyForbidden(Target.parse(target))).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"kafka:orders", "kafka:ordersXexpired", "kafka:other.orders.x", "rabbitmq:orders.x/rk"})
    void globDoesNotMatchOtherTargets(String target) {
        String why = allowing("kafka:orders.*").whyForbidden(Target.parse(target));

        assertThat(why).contains("allow-list").contains(target);
    }

    @Test
    void aTargetThatEndsWithWhateverAMessageBringsIsAllowedIfSomeEndingMayBe() {
        TargetPolicy policy = new TargetPolicy(List.of("rabbitmq:orders/order.*", "rabbitmq:audit/all", "kafka:*"),
                Set.of("rabbitmq:orders.delayed/*"), BOTH_BROKERS);

        assertThat(policy.whyForbiddenWhateverFollows("rabbitmq:orders/")).isNull();
        assertThat(policy.whyForbiddenWhateverFollows("rabbitmq:orders/order.created.")).isNull();
        assertThat(policy.whyForbiddenWhateverFollows("rabbitmq:audit/")).as("the exact target audit/all may follow").isNull();
        assertThat(policy.whyForbiddenWhateverFollows("rabbitmq:orders/invoice.")).contains("allow-list");
        assertThat(policy.whyForbiddenWhateverFollows("rabbitmq:billing/")).contains("allow-list");
        assertThat(policy.whyForbiddenWhateverFollows("rabbitmq:orders.delayed/")).contains("would loop");
    }

    @Test
    void globWithoutStarMatchesExactlyOneTarget() {
        TargetPolicy policy = allowing("kafka:orders");

        assertThat(policy.whyForbidden(Target.parse("kafka:orders"))).isNull();
        assertThat(policy.whyForbidden(Target.parse("kafka:orders2"))).isNotNull();
    }

    @Test
    void starInTheMiddleMatchesAnySegment() {
        TargetPolicy policy = allowing("rabbitmq:billing/*.due");

        assertThat(policy.whyForbidden(Target.parse("rabbitmq:billing/invoice.due"))).isNull();
        assertThat(policy.whyForbidden(Target.parse("rabbitmq:billing/invoice.paid"))).isNotNull();
    }

    @Test
    void regexCharactersInGlobsAreLiteral() {
        TargetPolicy policy = allowing("kafka:a.b", "rabbitmq:ex/a+b");

        assertThat(policy.whyForbidden(Target.parse("kafka:a.b"))).isNull();
        assertThat(policy.whyForbidden(Target.parse("kafka:aXb"))).isNotNull();
        assertThat(policy.whyForbidden(Target.parse("rabbitmq:ex/a+b"))).isNull();
        assertThat(policy.whyForbidden(Target.parse("rabbitmq:ex/aab"))).isNotNull();
    }

    @Test
    void anyOfSeveralGlobsAllows() {
        TargetPolicy policy = allowing("kafka:orders.*", "rabbitmq:*");

        assertThat(policy.whyForbidden(Target.parse("kafka:orders.x"))).isNull();
        assertThat(policy.whyForbidden(Target.parse("rabbitmq:/q"))).isNull();
        assertThat(policy.whyForbidden(Target.parse("kafka:payments"))).isNotNull();
    }

    @Test
    void globsAreStripped() {
        assertThat(allowing("  kafka:orders.*  ").whyForbidden(Target.parse("kafka:orders.x"))).isNull();
    }

    @Test
    void emptyAllowListForbidsEverything() {
        assertThat(allowing().whyForbidden(Target.parse("kafka:orders"))).contains("allow-list");
    }

    @Test
    void inboundChannelsAreForbiddenEvenWhenAllowListed() {
        TargetPolicy policy = new TargetPolicy(List.of("kafka:*"), Set.of("kafka:delay.inbound"), BOTH_BROKERS);

        assertThat(policy.whyForbidden(Target.parse("kafka:delay.inbound"))).contains("loop").contains("kafka:delay.inbound");
        assertThat(policy.whyForbidden(Target.parse("kafka:delay.inbound2"))).isNull();
    }

    @Test
    void severalStarsMatchAsAGlob() {
        TargetPolicy policy = allowing("kafka:*.orders.*.v*");

        assertThat(policy.whyForbidden(Target.parse("kafka:eu.orders.expired.v2"))).isNull();
        assertThat(policy.whyForbidden(Target.parse("kafka:eu.orders.x.orders.y.v"))).isNull();
        assertThat(policy.whyForbidden(Target.parse("kafka:.orders..v"))).isNull();
        assertThat(policy.whyForbidden(Target.parse("kafka:eu.orders.expired"))).isNotNull();
        assertThat(policy.whyForbidden(Target.parse("kafka:eu.order.expired.v2"))).isNotNull();
        assertThat(allowing("**").whyForbidden(Target.parse("kafka:x"))).isNull();
        assertThat(allowing("kafka:a*").whyForbidden(Target.parse("kafka:b"))).isNotNull();
    }

    @Test
    void aGlobOfManyStarsDecidesALongTargetQuickly() {
        // as a regular expression (.*a.*a...) this backtracks for hours over 249 a's that end without the b
        TargetPolicy policy = new TargetPolicy(List.of("kafka:*a*a*a*a*a*a*a*a*a*a*b", "rabbitmq:*a*a*a*a*a*a*a*a*/*a*a*a*a*a*a*a*b"),
                Set.of("kafka:*a*a*a*a*a*a*a*a*a*c"), BOTH_BROKERS);
        Target kafka = Target.parse("kafka:" + "a".repeat(249));
        Target rabbitMq = Target.parse("rabbitmq:" + "a".repeat(255) + "/" + "a".repeat(255));

        long start = System.nanoTime();
        String kafkaWhy = policy.whyForbidden(kafka);
        String rabbitMqWhy = policy.whyForbidden(rabbitMq);
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(kafkaWhy).contains("allow-list").hasSizeLessThan(300);
        assertThat(rabbitMqWhy).contains("allow-list").contains("...").hasSizeLessThan(300);
        assertThat(elapsedMs).as("ms to decide both").isLessThan(500);
        assertThat(policy.whyForbidden(Target.parse("kafka:" + "a".repeat(248) + "b"))).isNull();
    }

    @Test
    void aStarAlsoMatchesLineBreaksSoARoutingKeyCannotSlipPastTheLoopCheck() {
        TargetPolicy policy = new TargetPolicy(List.of("rabbitmq:*"), Set.of("rabbitmq:delay.ex/*"), BOTH_BROKERS);

        assertThat(policy.whyForbidden(Target.parse("rabbitmq:delay.ex/a\nb"))).contains("loop");
        assertThat(policy.whyForbidden(Target.parse("rabbitmq:other.ex/a\r\nb"))).isNull();
    }

    @Test
    void brokerWithoutPublisherIsUnsupported() {
        TargetPolicy kafkaOnly = new TargetPolicy(List.of("*"), Set.of(), Set.of("kafka"));

        assertThat(kafkaOnly.whyUnsupported(Target.parse("kafka:orders"))).isNull();
        assertThat(kafkaOnly.whyUnsupported(Target.parse("rabbitmq:ex/rk"))).contains("rabbitmq");
    }

    @Test
    void bothBrokersSupportedWhenBothEnabled() {
        TargetPolicy policy = new TargetPolicy(List.of("*"), Set.of(), BOTH_BROKERS);

        assertThat(policy.whyUnsupported(Target.parse("kafka:orders"))).isNull();
        assertThat(policy.whyUnsupported(Target.parse("rabbitmq:ex/rk"))).isNull();
    }

    @Test
    void noBrokerEnabledSupportsNothing() {
        TargetPolicy policy = new TargetPolicy(List.of("*"), Set.of(), Set.of());

        assertThat(policy.whyUnsupported(Target.parse("kafka:orders"))).contains("kafka");
    }

    private static TargetPolicy allowing(String... globs) {
        return new TargetPolicy(List.of(globs), Set.of(), BOTH_BROKERS);
    }
}
