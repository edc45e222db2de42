package io.github.redisdelaybridge.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.Target;
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
}
