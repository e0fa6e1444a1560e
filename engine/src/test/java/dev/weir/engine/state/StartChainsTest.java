package dev.weir.engine.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Windows grouped by start: one chain per start in the order windows were added, chains reused after
 * they are freed, and a visit order a restore can reproduce.
 */
class StartChainsTest
{
    private final WindowSlots slots = new WindowSlots(16, 0, null);
    private final StartChains chains = new StartChains(slots);

    @Test
    void theFirstWindowOfAStartOpensAChainAndLaterOnesJoinIt()
    {
        final int a = slots.allocate(1, 0, 10);
        final int b = slots.allocate(2, 0, 10);
        final int c = slots.allocate(3, 10, 20);
        final int chain = chains.add(a, 0);
        assertTrue(chain >= 0);
        assertEquals(-1, chains.add(b, 0), "joins the chain of start 0");
        final int other = chains.add(c, 10);
        assertTrue(other >= 0 && other != chain);
        assertEquals(List.of(a, b), walk(chain));
        assertEquals(List.of(c), walk(other));
        assertEquals(0, chains.start(chain));
        assertTrue(chains.holds(chain, 0));
        assertFalse(chains.holds(chain, 10));
    }

    @Test
    void aFreedChainIsReusedForAnotherStart()
    {
        final int a = slots.allocate(1, 0, 10);
        final int chain = chains.add(a, 0);
        slots.free(a);
        chains.free(chain);
        assertFalse(chains.holds(chain, 0));
        final int b = slots.allocate(1, 20, 30);
        assertEquals(chain, chains.add(b, 20));
        assertTrue(chains.holds(chain, 20));
        assertEquals(List.of(b), walk(chain));
        final int c = slots.allocate(2, 0, 10);
        assertTrue(chains.add(c, 0) >= 0, "start 0 has no chain any more");
    }

    @Test
    void visitsEveryWindowChainByChainInOrder()
    {
        final List<Integer> added = new ArrayList<>();
        for (int i = 0; i < 40; i++)
        {
            final long start = (i % 4) * 10L;
            final int slot = slots.allocate(i, start, start + 10);
            chains.add(slot, start);
            added.add(slot);
        }
        final List<Integer> visited = new ArrayList<>();
        chains.forEachWindow(visited::add);
        assertEquals(40, visited.size());
        for (int chain = 0; chain < 4; chain++)
        {
            final List<Integer> expected = new ArrayList<>();
            for (int i = chain; i < 40; i += 4)
            {
                expected.add(added.get(i));
            }
            assertEquals(expected, visited.subList(chain * 10, chain * 10 + 10));
        }
    }

    @Test
    void clearForgetsEveryChain()
    {
        final int a = slots.allocate(1, 0, 10);
        final int chain = chains.add(a, 0);
        chains.clear();
        assertFalse(chains.holds(chain, 0));
        final List<Integer> visited = new ArrayList<>();
        chains.forEachWindow(visited::add);
        assertEquals(List.of(), visited);
        assertTrue(chains.add(slots.allocate(1, 0, 10), 0) >= 0);
    }

    @Test
    void growsPastItsInitialTableOfStarts()
    {
        for (int i = 0; i < 100; i++)
        {
            final int slot = slots.allocate(0, i * 10L, i * 10L + 10);
            assertTrue(chains.add(slot, i * 10L) >= 0);
        }
        final List<Integer> visited = new ArrayList<>();
        chains.forEachWindow(visited::add);
        assertEquals(100, visited.size());
    }

    private List<Integer> walk(final int chain)
    {
        final List<Integer> out = new ArrayList<>();
        for (int slot = chains.head(chain); slot != WindowSlots.NONE; slot = slots.link(slot))
        {
            out.add(slot);
        }
        return out;
    }
}
