import { contextBridge, ipcRenderer } from 'electron'
import { apiMethods, type EventName, type EventSpec, type TableQaApi } from '../shared/api'

/** One method per operation; never a generic invoke. */
const api = {
  appInfo: () => ipcRenderer.invoke(apiMethods.appInfo),
  openDialog: () => ipcRenderer.invoke(apiMethods.openDialog),
  openBytes: (request) => ipcRenderer.invoke(apiMethods.openBytes, request),
  tableRows: (request) => ipcRenderer.invoke(apiMethods.tableRows, request),
  closeTable: (request) => ipcRenderer.invoke(apiMethods.closeTable, request),
  listTables: () => ipcRenderer.invoke(apiMethods.listTables),
  tableStructure: (request) => ipcRenderer.invoke(apiMethods.tableStructure, request),
  explainTable: (request) => ipcRenderer.invoke(apiMethods.explainTable, request),
  restructureTable: (request) => ipcRenderer.invoke(apiMethods.restructureTable, request),
  openSample: (request) => ipcRenderer.invoke(apiMethods.openSample, request),
  runPython: (request) => ipcRenderer.invoke(apiMethods.runPython, request),
  stopPython: (request) => ipcRenderer.invoke(apiMethods.stopPython, request),
  pythonStatus: () => ipcRenderer.invoke(apiMethods.pythonStatus),
  listHistory: () => ipcRenderer.invoke(apiMethods.listHistory),
  clearHistory: () => ipcRenderer.invoke(apiMethods.clearHistory),
  listQuestions: () => ipcRenderer.invoke(apiMethods.listQuestions),
  listSessions: (request) => ipcRenderer.invoke(apiMethods.listSessions, request),
  newSession: (request) => ipcRenderer.invoke(apiMethods.newSession, request),
  openSession: (request) => ipcRenderer.invoke(apiMethods.openSession, request),
  renameSession: (request) => ipcRenderer.invoke(apiMethods.renameSession, request),
  deleteSession: (request) => ipcRenderer.invoke(apiMethods.deleteSession, request),
  exportSession: (request) => ipcRenderer.invoke(apiMethods.exportSession, request),
  importSession: (request) => ipcRenderer.invoke(apiMethods.importSession, request),
  askQuestion: (request) => ipcRenderer.invoke(apiMethods.askQuestion, request),
  cancelQuestion: (request) => ipcRenderer.invoke(apiMethods.cancelQuestion, request),
  listEndpoints: () => ipcRenderer.invoke(apiMethods.listEndpoints),
  saveEndpoint: (request) => ipcRenderer.invoke(apiMethods.saveEndpoint, request),
  deleteEndpoint: (request) => ipcRenderer.invoke(apiMethods.deleteEndpoint, request),
  testEndpoint: (request) => ipcRenderer.invoke(apiMethods.testEndpoint, request),
  endpointModels: (request) => ipcRenderer.invoke(apiMethods.endpointModels, request),
  listModels: () => ipcRenderer.invoke(apiMethods.listModels),
  downloadModel: (request) => ipcRenderer.invoke(apiMethods.downloadModel, request),
  pauseDownload: (request) => ipcRenderer.invoke(apiMethods.pauseDownload, request),
  cancelDownload: (request) => ipcRenderer.invoke(apiMethods.cancelDownload, request),
  useModelFile: (request) => ipcRenderer.invoke(apiMethods.useModelFile, request),
  getSettings: () => ipcRenderer.invoke(apiMethods.getSettings),
  setSettings: (request) => ipcRenderer.invoke(apiMethods.setSettings, request),
  packageInfo: () => ipcRenderer.invoke(apiMethods.packageInfo),
  setPackageSource: (request) => ipcRenderer.invoke(apiMethods.setPackageSource, request),
  retryPackages: () => ipcRenderer.invoke(apiMethods.retryPackages),
  on<E extends EventName>(event: E, listener: (payload: EventSpec[E]) => void) {
    const wrapped = (_event: unknown, payload: EventSpec[E]): void => listener(payload)
    ipcRenderer.on(`event:${event}`, wrapped)
    return () => {
      ipcRenderer.removeListener(`event:${event}`, wrapped)
    }
  }
} satisfies TableQaApi

contextBridge.exposeInMainWorld('tableqa', api)
