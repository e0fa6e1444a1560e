package dev.weir.engine.join;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The horizon trails the greatest time read by out-of-orderness, lateness and reach, and saturates. */
class HorizonTest
{
    @Test
    void theHorizonTrailsTheGreatestTimeReadAndSaturates()
    {
        final Horizon horizon = new Horizon(10, 20, 300);
        assertEquals(Long.MIN_VALUE, horizon.horizon(), "nothing read yet");
        horizon.read(1_000);
        horizon.read(500);
        assertEquals(1_000 - 330, horizon.horizon());
        horizon.read(Long.MIN_VALUE + 5);
        assertEquals(670, horizon.horizon(), "an older time does not move it");
        final Horizon far = new Horizon(Long.MAX_VALUE, Long.MAX_VALUE, 1);
        far.read(0);
        assertEquals(Long.MIN_VALUE + 1, far.horizon());
        final Horizon before = new Horizon(Long.MAX_VALUE, 0, 0);
        before.read(-5);
        assertEquals(Long.MIN_VALUE, before.horizon(), "saturated, not wrapped round");
    }
}
