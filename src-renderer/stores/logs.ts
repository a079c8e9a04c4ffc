/** Drive logs of the open project. Imports start host jobs; the list refreshes on events. */
import { defineStore } from 'pinia';
import type { DriveLogInfo } from '../../src-main/api/contract';
import { api } from '../api';
import { useEntityList } from './entity-list';
import { startJob } from './start-job';
import { defaultImportOptions, importBytesFields, importFileFields, type ImportOptionsValue } from '../components/logs/import-options';

export const useLogsStore = defineStore('logs', () => {
  const logs = useEntityList<DriveLogInfo>({
    list: () => api.call('logs.list', {}),
    listError: 'Cannot list drive logs',
    remove: (id) => api.call('logs.delete', { id }),
    removeError: () => 'Cannot delete the drive log',
  });

  const importFile = (path: string, options: ImportOptionsValue = defaultImportOptions()) =>
    startJob(() => api.call('logs.importFile', { path, ...importFileFields(options) }), `Cannot import ${path}`);

  const importBytes = (name: string, bytes: Uint8Array<ArrayBuffer>, options: ImportOptionsValue = defaultImportOptions()) =>
    startJob(() => api.call('logs.importBytes', { name: name.slice(0, 255), bytes, ...importBytesFields(options) }), `Cannot import ${name}`);

  return { ...logs, importFile, importBytes };
});
