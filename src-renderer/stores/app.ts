/**
 * App-wide state: host info, connection state, and the one visible error alert.
 * Errors from any action land here so the user always sees the host's own message
 * (e.g. "a project file name ends in .thicket") in the same place under the header.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import { ApiError } from '../../src-main/api/contract';
import type { AppInfo } from '../../src-main/api/contract';
import { api, connection } from '../api';
import type { ConnectionState } from '../api';

export interface ShownError {
  title: string;
  message: string;
  code: string;
}

export const useAppStore = defineStore('app', () => {
  const info = ref<AppInfo | null>(null);
  const connectionState = ref<ConnectionState>(connection.state);
  const connectionDetail = ref(connection.detail);
  const error = ref<ShownError | null>(null);

  connection.subscribe((state, detail) => {
    connectionState.value = state;
    connectionDetail.value = detail;
  });

  async function loadInfo(): Promise<void> {
    try {
      info.value = await api.call('app.info', {});
    } catch (e) {
      reportError('Cannot reach the Thicket host', e);
    }
  }

  /** Show an error; `title` says what the user was doing. */
  function reportError(title: string, e: unknown): void {
    // A rejected token already has its own banner (ConnectionBanner); one message is enough.
    if (e instanceof ApiError && e.code === 'unauthorized' && connectionState.value === 'unauthorized') return;
    if (e instanceof ApiError) error.value = { title, message: e.message, code: e.code };
    else error.value = { title, message: e instanceof Error ? e.message : String(e), code: 'client' };
    console.warn(`${title}:`, e);
  }

  function clearError(): void {
    error.value = null;
  }

  return { info, connectionState, connectionDetail, error, loadInfo, reportError, clearError };
});
