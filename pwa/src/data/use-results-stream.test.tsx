/** While results are withheld, the stream's frames carry no tally and set none; the toast still comes. */
import { act, renderHook, screen } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { afterEach, describe, expect, test, vi } from "vitest";
import { NEW_VOTE_EVENT, messages, type Results } from "@evoting/shared";
import { json, mockFetch } from "../test/fetch-mock";
import { testQueryClient } from "../test/render";
import { AppToaster } from "../components/AppToaster";
import { queryKeys } from "./query-keys";
import { useResultsStream } from "./use-results-stream";

class FakeEventSource {
  static last: FakeEventSource | null = null;
  private listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, fn: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  emit(type: string, data: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
  close() {}
}

afterEach(() => vi.unstubAllGlobals());

describe("results stream while results are withheld", () => {
  test("withheld frames set no results; a new vote still announces itself; tallies apply once published", async () => {
    vi.stubGlobal("EventSource", FakeEventSource);
    mockFetch({ "GET /api/realtime/token": () => json({ token: "t", expiresAt: "2099-01-01T00:00:00.000Z" }) });
    const client = testQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        {children}
        <AppToaster />
      </QueryClientProvider>
    );
    renderHook(() => useResultsStream(true), { wrapper });
    await vi.waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    const source = FakeEventSource.last!;
    const withheld = { withheld: true, message: messages.resultsHidden };

    act(() => source.emit("snapshot", withheld));
    expect(client.getQueryData(queryKeys.results)).toBeUndefined();
    act(() => source.emit(NEW_VOTE_EVENT, withheld));
    expect(client.getQueryData(queryKeys.results)).toBeUndefined();
    expect(await screen.findByText(messages.newVoteToast)).toBeInTheDocument();

    const published: Results = { totalRegisteredVoters: 2, totalVotesCast: 1, results: [], generatedAt: "2026-01-01T00:00:00.000Z" };
    act(() => source.emit(NEW_VOTE_EVENT, published));
    expect(client.getQueryData(queryKeys.results)).toEqual(published);
  });
});
