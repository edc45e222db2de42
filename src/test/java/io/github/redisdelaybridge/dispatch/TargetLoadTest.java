package io.github.redisdelaybridge.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.outbound.TargetLimit;
import io.github.redisdelaybridge.outbound.TargetLimits;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetLoadTest {

    private static final Target ORDERS = new Target.Kafka("orders");
    private static final Target BILLING = new Target.RabbitMq("billing", "due");

    @Test
    void aTargetNotAnsweringTakesABatchOnlyUpToItsBound() {
        TargetLoad load = new TargetLoad(100);

        assertThat(load.admit(ORDERS, 60, 101_000)).isEqualTo(60);
        assertThat(load.admit(ORDERS, 60, 101_000)).as("40 left under the bound").isEqualTo(40);
        assertThat(load.admit(ORDERS, 5, 101_000)).isZero();
        assertThat(load.inFlight(ORDERS)).isEqualTo(100);
        assertThat(load.admit(BILLING, 5, 101_000)).as("another target has a bound of its own").isEqualTo(5);
    }

    @Test
    void aTargetWhoseBrokerAnsweredTakesAllItIsGiven() {
        TargetLoad load = new TargetLoad(100);
        assertThat(load.admit(ORDERS, 100, 101_000)).isEqualTo(100);
        load.answered(ORDERS, 101_500);

        assertThat(load.admit(ORDERS, 300, 102_000)).isEqualTo(300);
        assertThat(load.inFlight(ORDERS)).isEqualTo(400);
        assertThat(load.admit(ORDERS, 10, 102_501)).as("quiet for over a second again: bounded").isZero();
    }

    @Test
    void releasedMessagesMakeRoomAgain() {
        TargetLoad load = new TargetLoad(100);
        load.admit(ORDERS, 100, 101_000);
        load.release(ORDERS, 30);

        assertThat(load.inFlight(ORDERS)).isEqualTo(70);
        assertThat(load.admit(ORDERS, 50, 101_000)).isEqualTo(30);
        load.release(ORDERS, 500);
        assertThat(load.inFlight(ORDERS)).as("never below nothing").isZero();
    }

    @Test
    void aPatternsCapBoundsItsTargetsTogetherEvenWhileTheyAnswer() {
        Target ordersEu = new Target.Kafka("orders.eu");
        Target ordersUs = new Target.Kafka("orders.us");
        TargetLoad load = new TargetLoad(100, new TargetLimits(List.of(new TargetLimit("orders", "kafka:orders.*", 0, 50, 0))));
        load.answered(ordersEu, 101_000);
        load.answered(ordersUs, 101_000);

        assertThat(load.admit(ordersEu, 30, 101_000)).isEqualTo(30);
        assertThat(load.admit(ordersUs, 30, 101_000)).as("the pattern's cap is shared by its targets").isEqualTo(20);
        assertThat(load.inFlight(ordersUs)).as("the refused ones are not counted").isEqualTo(20);
        // answers come back at once (a target failing fast): the messages still count until they are settled
        load.answered(ordersEu, 101_001);
        assertThat(load.admit(ordersEu, 10, 101_001)).as("answering does not lift the pattern's cap").isZero();
        load.release(ordersEu, 30);
        assertThat(load.admit(ordersEu, 40, 101_002)).as("settling makes room again").isEqualTo(30);
        assertThat(load.admit(BILLING, 500, 101_002)).as("a target the pattern does not match").isEqualTo(100);
    }
}
