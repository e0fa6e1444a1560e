package dev.weir.engine.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the test-only reference model produced for one stream. Test-only; shares no code with
 * the engine.
 *
 * @param results    rows {@code window_start,window_end,key,count,sum,min,max,version}, in emit order.
 * @param late       rows {@code event_id,event_time,key,value} in arrival order; empty under drop.
 * @param dropped    events skipped under the drop policy.
 * @param sideOutput events skipped under the side policy (each also a row of {@code late}).
 * @param ignored    events that fell in no window and were not skipped.
 */
public record ModelOutput(List<String> results, List<String> late, long dropped, long sideOutput, long ignored)
{
    public ModelOutput
    {
        results = List.copyOf(results);
        late = List.copyOf(late);
    }

    /**
     * @return the result rows sorted as strings: compare engine and model as multisets with this.
     */
    public List<String> sortedResults()
    {
        final List<String> sorted = new ArrayList<>(results);
        Collections.sort(sorted);
        return List.copyOf(sorted);
    }
}
