/** Renderer entry: Pinia, router, live sync with the host, then mount. */
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { router } from './router';
import { startLiveSync } from './stores/live-sync';
import { useAppStore } from './stores/app';
import './styles.css';

const app = createApp(App);
app.use(createPinia());
app.use(router);
// An error belongs to the page where it happened; don't carry it to the next one.
router.afterEach((to, from) => {
  if (to.path !== from.path) useAppStore().clearError();
});
startLiveSync();
app.mount('#app');
