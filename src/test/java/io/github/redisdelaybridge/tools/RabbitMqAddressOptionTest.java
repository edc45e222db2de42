package io.github.redisdelaybridge.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.config.RabbitMqSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** bin/publish's {@code --rabbitmq}: an amqp:// URI it cannot read is refused without its password. */
class RabbitMqAddressOptionTest {

    private static final RabbitMqSettings SHIPPED = new RabbitMqSettings(false, "127.0.0.1", 5672, "guest", "guest", "/", null, true,
            List.of("delay.inbound"), java.util.Map.of(), java.util.Map.of(), java.util.Map.of(), 10, 1, 10, 5, 3, "kafka:delay.dlq");

    @Test
    void aUriThatCannotBeReadIsRefusedWithoutItsPassword() {
        for (String uri : List.of("amqps://bridge:pa%zz-q7@rabbit.example:5671/v", "amqps://bridge:pa ss-q7@rabbit.example:5671/v",
                "amqps://bridge:p/a%zz@ss-q7@rabbit.example:5671/v")) {
            assertThatThrownBy(() -> BrokerSettings.withAddress(SHIPPED, uri)).as(uri)
                    .hasMessageStartingWith("--rabbitmq amqps://***@")
                    .hasMessageNotContaining("q7");
        }
    }

    @Test
    void aUriThatCanBeReadReplacesUserAndHost() {
        RabbitMqSettings settings = BrokerSettings.withAddress(SHIPPED, "amqp://bridge:p%40ss@rabbit.example:5673/v");

        assertThat(settings.username()).isEqualTo("bridge");
        assertThat(settings.password()).isEqualTo("p@ss");
        assertThat(settings.addresses()).containsExactly(new RabbitMqSettings.Address("rabbit.example", 5673));
    }
}
